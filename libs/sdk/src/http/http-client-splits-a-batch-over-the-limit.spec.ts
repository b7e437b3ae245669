/**
 * A batch the gateway refuses as too large (413: over its body limit or the tenant's burst) is sent
 * again in halves, in order; rejected items keep their index in the batch the client handed over.
 */
import { connectHttp } from '../connect';
import { ContractGateway } from '../testing/contract-gateway.testing';

describe('HTTP client and the batch limit', () => {
  const gateway = new ContractGateway();
  let baseUrl: string;
  beforeAll(async () => {
    gateway.maxBatch = 30;
    baseUrl = await gateway.listen();
  });
  afterAll(() => gateway.close());

  it('halves a batch answered 413 until it fits', async () => {
    const client = connectHttp({ baseUrl, agentId: 'big', taskId: 't', batchSize: 100, flushIntervalMs: 10_000 });
    for (let i = 0; i < 99; i++) await client.message(`m${i}`);
    await client.step({ kind: 'action', action: { tool: 'x'.repeat(200), args: {} } });
    const result = await client.flush();
    expect(result.accepted).toBe(99);
    expect(result.rejected.map((r) => [r.index, r.step.seq])).toEqual([[99, 99]]);
    expect(gateway.steps.map((s) => s.seq)).toEqual([...Array(99).keys()]);
    const sizes = gateway.requests.filter((r) => r.url === '/v1/steps').map((r) => (JSON.parse(r.body) as unknown[]).length);
    expect(sizes).toEqual([100, 50, 25, 25, 50, 25, 25]);
    await client.close();
  });
});
