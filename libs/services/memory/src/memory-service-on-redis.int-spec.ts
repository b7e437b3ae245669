/**
 * The memory service in distributed mode on the real Redis at 127.0.0.1:6379 (events on the in-process
 * bus): charter, STATE and checkpoints land in Redis under the tenant's keys and the HTTP API reads them back.
 */
import Redis from 'ioredis';
import { InProcessBus } from '@wayfinder/bus';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { tenantKey } from '@wayfinder/redis';
import { memoryStores } from './memory-stores';
import { request, seedAgent, testTenantOfKey, type AgentRef, type EmbeddedMemoryService } from './memory-service.testing';
import { startMemoryService } from './start-memory-service';

const url = process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
const agent: AgentRef = { tenantId: `acme-${process.pid}-${Date.now().toString(36)}`, taskId: 'report', agentId: 'writer-1' };

describe('memory service on a real Redis', () => {
  let service: EmbeddedMemoryService;

  beforeAll(async () => {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at ${url} (run npm run infra:up): ${error.message}`);
    });
    const bus = new InProcessBus();
    const embedder = new HashingEmbedder();
    const stores = memoryStores({ mode: 'distributed', redis, dimension: embedder.dimension, ttlMs: 60_000, warn: () => undefined });
    const running = await startMemoryService({ bus, stores, embedder, logger: false, apiKeys: testTenantOfKey });
    service = { ...running, bus, stores };
    await seedAgent(service, agent);
  });

  afterAll(async () => {
    await service?.stop();
    const keys = await redis.keys(`${tenantKey(agent.tenantId)}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('keeps charter, STATE, checkpoints and the agent’s durable trail in Redis under the tenant, with a TTL', async () => {
    const keys = (await redis.keys(`${tenantKey(agent.tenantId)}:*`)).sort();
    expect(keys).toEqual([
      tenantKey(agent.tenantId, 'memory-trail', 'writer-1'),
      tenantKey(agent.tenantId, 'wm', 'charter', 'report'),
      tenantKey(agent.tenantId, 'wm', 'checkpoints', 'report', 'writer-1'),
      tenantKey(agent.tenantId, 'wm', 'state', 'report', 'writer-1'),
    ]);
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  it('serves the assembled context and the checkpoints from Redis', async () => {
    const context = await request(service.url, 'GET', `/v1/tenants/${agent.tenantId}/agents/writer-1/tasks/report/context`);
    expect(context.status).toBe(200);
    expect(context.body.text).toContain('3. Do not cite Wikipedia (from user feedback)');
    expect(context.body.text).toContain('stage: 2/3 — collect pricing of each competitor');
    const checkpoints = await request(service.url, 'GET', `/v1/tenants/${agent.tenantId}/agents/writer-1/tasks/report/checkpoints`);
    expect(checkpoints.body.checkpoints.map((c: { id: string }) => c.id)).toEqual(['cp:report:collect:3']);
    expect((await request(service.url, 'GET', `/v1/tenants/other-${agent.tenantId}/agents/writer-1/tasks/report/context`)).status).toBe(404);
  });
});
