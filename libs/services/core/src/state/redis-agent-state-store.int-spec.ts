import Redis from 'ioredis';
import { RedisAgentStateStore } from '@wayfinder/redis';
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
