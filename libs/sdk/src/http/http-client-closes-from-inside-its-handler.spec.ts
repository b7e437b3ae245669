/**
 * A correction handler may close its own subscription (take one correction, stop listening): close()
 * returns without waiting for the handler that called it, on the HTTP transport and on the guard, and
 * a handler may publish and flush on the guard.
 */
import { connectHttp, createGuard } from '../connect';
import { ContractGateway, hintFor } from '../testing/contract-gateway.testing';

describe('closing a subscription from its handler', () => {
  const gateway = new ContractGateway();
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await gateway.listen()));
  afterAll(() => gateway.close());

  it('does not deadlock over HTTP', async () => {
    const client = connectHttp({ baseUrl, agentId: 'once', taskId: 't' });
    gateway.push(hintFor('once', 1));
    gateway.push(hintFor('once', 2));
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      const subscription = client.onCorrection(async (c) => {
        seen.push(c.eventId);
        await subscription.close();
        resolve();
      }, { fromStart: true }); // the two were logged before it subscribed
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual(['cor-once-1']);
    await client.close();
  });

  it('does not deadlock on the guard', async () => {
    const client = createGuard({ agentId: 'g', taskId: 't' });
    const seen: string[] = [];
    const subscription = client.onCorrection(async (c) => {
      seen.push(c.action);
      await client.message(`applying the ${c.action}`);
      await client.flush(); // publishing from inside the handler does not wait for the handler either
      await subscription.close();
    });
    for (let i = 0; i < 12; i++) {
      const callId = await client.action('read_file', { path: '/x' });
      await client.observation('read_file', { callId, error: 'EACCES' });
    }
    await client.flush();
    expect(seen).toEqual(['hint']);
    await client.close();
  });
});
