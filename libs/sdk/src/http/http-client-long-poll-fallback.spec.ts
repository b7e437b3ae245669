/**
 * When the gateway does not offer the event stream, the client long-polls the corrections route with
 * `after=` the last cursor and `wait=`, and still gets each correction once, in order.
 */
import type { Correction } from '@wayfinder/contracts';
import { connectHttp } from '../connect';
import { ContractGateway, hintFor } from '../testing/contract-gateway.testing';

describe('HTTP client corrections by long-poll', () => {
  const gateway = new ContractGateway();
  let baseUrl: string;
  beforeAll(async () => {
    gateway.sse = false;
    baseUrl = await gateway.listen();
  });
  afterAll(() => gateway.close());

  it('falls back to long-polling with the cursor', async () => {
    const client = connectHttp({ baseUrl, agentId: 'agent-9', taskId: 'report', longPollWaitSeconds: 2 });
    gateway.push(hintFor('agent-9', 1)); // before the agent connects: kept for it, read with fromStart
    const seen: Correction[] = [];
    const subscription = client.onCorrection((c) => void seen.push(c), { fromStart: true });
    const deadline = Date.now() + 10_000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    gateway.push(hintFor('agent-9', 2));
    while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));

    expect(seen.map((c) => c.eventId)).toEqual(['cor-agent-9-1', 'cor-agent-9-2']);
    const polls = gateway.requests.filter((r) => r.url.includes('/corrections') && r.url.includes('wait=2'));
    expect(polls.some((p) => p.url.includes('after=00000001'))).toBe(true);
    await subscription.close();
    await client.close();
  });
});
