/**
 * Every AgentStateStore adapter on a real Redis runs the port's contract suite: RedisAgentStateStore of each
 * kind, and RedisDetectorStateStore (the detector worker's DetectorStateStore).
 */
import Redis from 'ioredis';
import { RedisAgentStateStore, RedisDetectorStateStore } from '@wayfinder/redis';
import { agentStateStoreContract } from './agent-state.store.contract';

const run = `${process.pid}-${Date.now()}`;
const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });

beforeAll(async () => {
  await redis.connect().catch((error: Error) => {
    throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
  });
});
afterAll(() => redis.quit());

for (const kind of ['detector', 'localizer', 'correction', 'memory-trail']) {
  agentStateStoreContract(`RedisAgentStateStore (${kind})`, () => new RedisAgentStateStore(redis, kind, { ttlMs: 60_000, namespace: `ns:${run}` }), `${kind}-${run}`);
}
// The detector worker's DetectorStateStore adapter (kind 'detector' by construction) passes the same suite.
agentStateStoreContract('RedisDetectorStateStore', () => new RedisDetectorStateStore(redis, { ttlMs: 60_000, namespace: `ns:det:${run}` }), `det-${run}`);
