/**
 * The bus's partitioner must choose the partition kafkajs's DefaultPartitioner (the Java client's)
 * chooses for every key, or an agent's messages from different producers would land on different
 * partitions and co-partitioning (DESIGN §3) would break.
 */
import fc from 'fast-check';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { keyPartitioner } from './key-partitioner';

const metadata = (n: number, leaderless: number[] = []): PartitionMetadata[] =>
  Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader: leaderless.includes(partitionId) ? -1 : 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));

describe('the key partitioner', () => {
  it('chooses the partition of kafkajs DefaultPartitioner for any string key (unicode, ":" and empty included)', () => {
    const ours = keyPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.fullUnicodeString(), fc.constantFrom('', 'a', 'acme:agent-1', 't:%3a:x')), fc.integer({ min: 1, max: 64 }), (key, n) => {
        const args = { topic: 'wayfinder.steps.v1', partitionMetadata: metadata(n), message: { key, value: '' } };
        // Twice: the second answer comes from the remembered hash.
        expect(ours(args)).toBe(theirs(args));
        expect(ours(args)).toBe(theirs(args));
      }),
      { numRuns: 3000 },
    );
  });

  it('chooses the same for Buffer keys and keeps an explicit partition', () => {
    const ours = keyPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 1, max: 32 }), (bytes, n) => {
        const args = { topic: 't', partitionMetadata: metadata(n), message: { key: Buffer.from(bytes), value: '' } };
        expect(ours(args)).toBe(theirs(args));
      }),
    );
    expect(ours({ topic: 't', partitionMetadata: metadata(6), message: { key: 'k', partition: 4, value: '' } })).toBe(4);
  });

  it('spreads keyless messages round-robin over the partitions that have a leader', () => {
    const ours = keyPartitioner();
    const chosen = Array.from({ length: 40 }, () => ours({ topic: 't', partitionMetadata: metadata(5, [1, 3]), message: { value: '' } }));
    expect(new Set(chosen)).toEqual(new Set([0, 2, 4]));
  });

  it('answers the same after more keys than it remembers', () => {
    const ours = keyPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    const md = metadata(12);
    for (let i = 0; i < 70_000; i++) ours({ topic: 't', partitionMetadata: md, message: { key: `k${i}`, value: '' } });
    for (const key of ['k0', 'k65535', 'k69999', 'fresh']) expect(ours({ topic: 't', partitionMetadata: md, message: { key, value: '' } })).toBe(theirs({ topic: 't', partitionMetadata: md, message: { key, value: '' } }));
  });
});
