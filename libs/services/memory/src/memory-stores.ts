/**
 * Chooses the adapters of the memory ports for a deployment mode (DESIGN §3 "Co-location and the embedded
 * default"): in-memory in embedded mode; Redis working memory in distributed mode, with Qdrant long-term
 * memory when a URL is given, else the in-memory index (with a warning, since it is per process and lost
 * on restart).
 */
import type { Redis } from 'ioredis';
import { InMemoryVectorStore, InMemoryWorkingMemory, type VectorStore, type WorkingMemory } from '@wayfinder/memory';
import { QdrantVectorStore } from '@wayfinder/qdrant';
import { RedisAgentStateStore, RedisWorkingMemory } from '@wayfinder/redis';
import type { AgentStateStore } from '@wayfinder/service-core';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface MemoryStoresConfig {
  mode: 'embedded' | 'distributed';
  /** Required in distributed mode. */
  redis?: Redis;
  qdrantUrl?: string;
  /** Sent with every Qdrant request (WAYFINDER_QDRANT_API_KEY). */
  qdrantApiKey?: string;
  /** The embedder's dimension: the vector index refuses vectors of any other length. */
  dimension: number;
  /** Working-memory entries expire this long after their last write (default 24 h). */
  ttlMs?: number;
  qdrantCollection?: string;
  warn?: (message: string) => void;
  /** Separates deployments sharing one Redis (WAYFINDER_TOPIC_PREFIX): working memory and trails. */
  namespace?: string;
  /** Per-agent trails idle this long leave memory (kept in Redis); at most `maxAgents` in memory. */
  idleTtlMs?: number;
  maxAgents?: number;
}

export interface MemoryStores {
  workingMemory: WorkingMemory;
  vectorStore: VectorStore;
  /** The working memory's TTL, so the service can keep an active agent's entries alive. */
  ttlMs?: number;
  /** Where the per-agent trails are durable (distributed mode); none in embedded mode. */
  trailStore?: AgentStateStore;
  idleTtlMs?: number;
  maxAgents?: number;
}

export function memoryStores(config: MemoryStoresConfig): MemoryStores {
  const ttlMs = config.ttlMs ?? DAY_MS;
  if (config.mode === 'embedded') {
    return { workingMemory: new InMemoryWorkingMemory({ ttlMs }), vectorStore: new InMemoryVectorStore({ dimension: config.dimension }), ttlMs };
  }
  if (!config.redis) throw new Error('memory stores: distributed mode needs a Redis connection');
  const workingMemory = new RedisWorkingMemory(config.redis, { ttlMs, ...(config.namespace && { namespace: `wm.${config.namespace}` }) });
  const durable = {
    trailStore: new RedisAgentStateStore(config.redis, 'memory-trail', { namespace: config.namespace, ttlMs }),
    idleTtlMs: config.idleTtlMs,
    maxAgents: config.maxAgents,
  };
  if (config.qdrantUrl) {
    return {
      workingMemory,
      ttlMs,
      ...durable,
      vectorStore: new QdrantVectorStore({ url: config.qdrantUrl, apiKey: config.qdrantApiKey, dimension: config.dimension, collection: config.qdrantCollection }),
    };
  }
  (config.warn ?? console.warn)(
    'memory stores: no Qdrant URL (WAYFINDER_QDRANT_URL / --qdrant): long-term memory uses the in-memory index of this process and is lost on restart',
  );
  return { workingMemory, vectorStore: new InMemoryVectorStore({ dimension: config.dimension }), ttlMs, ...durable };
}
