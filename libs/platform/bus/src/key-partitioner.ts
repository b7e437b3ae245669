/**
 * The producer's partitioner (issue #17): the partition of a keyed message is the one kafkajs's
 * `DefaultPartitioner` (the Java client's, murmur2 of the key's UTF-8 bytes, positive, modulo the topic's
 * partitions) chooses, so co-partitioning holds across every producer of the fleet (the SDK's Kafka
 * transport, other clients). Computed in 32-bit integer arithmetic (`Math.imul`) instead of kafkajs's
 * 64-bit Long objects (several allocations per byte group), with each key's hash remembered (agents'
 * keys repeat), and without filtering the partition list per message. Proven equal to kafkajs's by
 * `key-partitioner-equals-kafkajs-default.spec.ts`. Messages without a key go round-robin over the
 * partitions that have a leader, as there.
 */
import type { ICustomPartitioner, PartitionerArgs } from 'kafkajs';

const M = 0x5bd1e995;
const SEED = 0x9747b28c;
/** Hashes remembered; the cache starts over past this many keys (a bound, not an LRU: cheap and enough). */
const MAX_CACHED = 65_536;

/** murmur2 as the Java client computes it (signed 32-bit result). */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = (SEED ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The tail bytes (Java's switch with fall-through).
  const tail = length & 3;
  if (tail === 3) h ^= data[whole + 2] << 16;
  if (tail >= 2) h ^= data[whole + 1] << 8;
  if (tail >= 1) h = Math.imul(h ^ data[whole], M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export const keyPartitioner: ICustomPartitioner = () => {
  const hashes = new Map<string, number>();
  const counters = new Map<string, number>();
  const hashOf = (key: Buffer | string): number => {
    if (typeof key !== 'string') return murmur2(key);
    let h = hashes.get(key);
    if (h === undefined) {
      h = murmur2(Buffer.from(key));
      if (hashes.size >= MAX_CACHED) hashes.clear();
      hashes.set(key, h);
    }
    return h;
  };
  return ({ topic, partitionMetadata, message }: PartitionerArgs): number => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    if (message.key !== null && message.key !== undefined) return (hashOf(message.key) & 0x7fffffff) % partitionMetadata.length;
    const available = partitionMetadata.filter((p) => p.leader >= 0);
    const n = ((counters.get(topic) ?? Math.floor(Math.random() * 0x7fffffff)) + 1) & 0x7fffffff;
    counters.set(topic, n);
    return available.length > 0 ? available[n % available.length].partitionId : n % partitionMetadata.length;
  };
};
