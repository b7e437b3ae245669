/**
 * Corrections over SSE: a broken stream is reconnected with Last-Event-ID, so a correction published
 * while the agent was disconnected arrives after the reconnect, and none arrives twice.
 */
import type { Correction } from '@wayfinder/contracts';
import { connectHttp } from '../connect';
import { ContractGateway, hintFor } from '../testing/contract-gateway.testing';

async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('HTTP client corrections over SSE', () => {
  const gateway = new ContractGateway();
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await gateway.listen()));
  afterAll(() => gateway.close());

  it('reconnects after a dropped stream and resumes after the last correction it had', async () => {
    const client = connectHttp({ baseUrl, apiKey: 'k', agentId: 'agent-1', taskId: 'report', reconnectDelayMs: 50, onError: () => undefined });
    const seen: Correction[] = [];
    const subscription = client.onCorrection((c) => void seen.push(c));
    await until(() => gateway.openStreams === 1, 'the stream');
    const first = gateway.push(hintFor('agent-1', 1));
    gateway.push(hintFor('agent-2', 1)); // another agent's: never delivered here
    await until(() => seen.length === 1, 'the first hint');
    expect(subscription.cursor).toBe(first);

    gateway.dropStreams();
    gateway.push(hintFor('agent-1', 2)); // while disconnected
    await until(() => seen.length === 2, 'the hint sent while disconnected');
    gateway.push(hintFor('agent-1', 3));
    await until(() => seen.length === 3, 'the third hint');

    expect(seen.map((c) => c.eventId)).toEqual(['cor-agent-1-1', 'cor-agent-1-2', 'cor-agent-1-3']);
    const streams = gateway.requests.filter((r) => r.url.startsWith('/v1/agents/agent-1/corrections') && r.headers.accept === 'text/event-stream');
    expect(streams.length).toBeGreaterThanOrEqual(2);
    // It started from now (an empty log: cursor 0), asked once; the reconnect resumes after what it had.
    expect(gateway.requests.filter((r) => r.url.includes('after=now'))).toHaveLength(1);
    expect(streams[0].headers['last-event-id']).toBe('00000000');
    expect(streams[1].headers['last-event-id']).toBe(first);
    expect(streams[1].headers.authorization).toBe('Bearer k');

    await client.ack(seen[0]);
    expect(gateway.acks).toEqual([{ agentId: 'agent-1', correctionId: 'cor-agent-1-1', outcome: 'applied' }]);
    await subscription.close();
    await client.close();
  });
});
