// The memory API is never open: no key or an unknown key gets 401, another tenant's key 403 (naming the
// field), the tenant's own key its data; a service started without keys answers no request at all.
import { InProcessBus } from '@wayfinder/bus';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { memoryStores } from './memory-stores';
import { request, seedAgent, startEmbeddedMemoryService, type EmbeddedMemoryService } from './memory-service.testing';
import { startMemoryService } from './start-memory-service';

describe('the memory API', () => {
  let service: EmbeddedMemoryService;
  const agent = { tenantId: 'acme', taskId: 'report', agentId: 'writer' };
  const path = '/v1/tenants/acme/agents/writer/tasks/report/checkpoints';

  beforeAll(async () => {
    service = await startEmbeddedMemoryService();
    await seedAgent(service, agent);
  });
  afterAll(() => service.stop());

  it('answers only with the key of the tenant in the path', async () => {
    expect((await request(service.url, 'GET', path)).status).toBe(200);
    expect(await request(service.url, 'GET', path, undefined, null)).toMatchObject({ status: 401, body: { error: 'missing API key (Authorization: Bearer <key>)', field: 'authorization' } });
    expect(await request(service.url, 'GET', path, undefined, 'made-up')).toMatchObject({ status: 401, body: { error: 'unknown API key' } });
    expect(await request(service.url, 'GET', path, undefined, 'test-key:globex')).toMatchObject({ status: 403, body: { field: 'tenantId' } });
    expect((await request(service.url, 'POST', '/v1/tenants/acme/memories/query', { text: 'x' }, 'test-key:globex')).status).toBe(403);
  });

  it('answers no request when started without keys', async () => {
    const embedder = new HashingEmbedder();
    const bare = await startMemoryService({ bus: new InProcessBus(), stores: memoryStores({ mode: 'embedded', dimension: embedder.dimension }), embedder, logger: false });
    try {
      const response = await request(bare.url, 'GET', path);
      expect(response.status).toBe(401);
      expect(response.body.error).toContain('WAYFINDER_MEMORY_API_KEYS');
    } finally {
      await bare.stop();
    }
  });
});
