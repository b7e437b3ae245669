/**
 * A 429 or 503 from the gateway is retried after its Retry-After, and the batch arrives once: flush
 * resolves only when the gateway accepted it.
 */
import { connectHttp } from '../connect';
import { ContractGateway } from '../testing/contract-gateway.testing';

describe('HTTP client under rate limiting', () => {
  const gateway = new ContractGateway();
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await gateway.listen()));
  afterAll(() => gateway.close());

  it('waits Retry-After on 429 and 503 and delivers the batch exactly once', async () => {
    const client = connectHttp({ baseUrl, agentId: 'a', taskId: 't', flushIntervalMs: 10_000 });
    gateway.failNext(429, 1);
    gateway.failNext(503, 0);
    await client.action('search', { q: 'totals' });
    await client.observation('search', { content: 'no results' });
    const started = Date.now();
    const result = await client.flush();
    expect(result).toEqual({ accepted: 2, rejected: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(gateway.requests.filter((r) => r.url === '/v1/steps')).toHaveLength(3);
    expect(gateway.steps.map((s) => s.seq)).toEqual([0, 1]);
    await client.close();
  });

  it('rejects flush naming the status when the gateway refuses the key, keeping the steps buffered', async () => {
    const client = connectHttp({ baseUrl, agentId: 'b', taskId: 't', flushIntervalMs: 10_000, onError: () => undefined });
    gateway.failNext(401);
    await client.message('hello');
    await expect(client.flush()).rejects.toThrow('POST /v1/steps: 401 slow down');
    expect(client.buffered).toBe(1);
    await expect(client.flush()).resolves.toEqual({ accepted: 1, rejected: [] });
    expect(client.buffered).toBe(0);
    await client.close();
  });
});
