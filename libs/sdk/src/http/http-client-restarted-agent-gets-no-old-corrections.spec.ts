/**
 * An agent rerun with the same id: `onCorrection` starts from now, so the earlier run's hints still in
 * the gateway's 24 h log are not delivered again, but a standing freeze is, first (the agent is still
 * frozen); with a `runId`, a late hint of the earlier run is skipped too; `fromStart: true` replays the log; a stream dropped before the first
 * correction resumes from the position it was given, not from a later now.
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

function of(run: string, n: number): Correction {
  return { ...hintFor('rerun', n), eventId: `cor-${run}-${n}`, runId: run };
}

function freezeOf(run: string, n: number): Correction {
  return { ...of(run, n), severity: 'critical', action: 'freeze', freeze: { escalationId: `esc-${run}`, reason: 'looping' } } as Correction;
}

describe('a restarted agent over HTTP', () => {
  const gateway = new ContractGateway();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await gateway.listen();
    gateway.push(of('run-1', 1));
    gateway.push(freezeOf('run-1', 2)); // the earlier run ended frozen, and nobody resumed it
  });
  afterAll(() => gateway.close());

  it('receives the standing freeze, then only its own run, from now, also after a reconnect', async () => {
    const client = connectHttp({ baseUrl, agentId: 'rerun', taskId: 'report', runId: 'run-2', reconnectDelayMs: 20, onError: () => undefined });
    const seen: string[] = [];
    const subscription = client.onCorrection((c) => void seen.push(c.eventId));
    await until(() => gateway.openStreams === 1, 'the stream');
    gateway.dropStreams(); // before any correction: the reconnect must not ask for now again
    gateway.push(of('run-1', 3)); // a straggler of the earlier run
    gateway.push(of('run-2', 4));
    await until(() => seen.length === 2, "the freeze and the new run's hint");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual(['cor-run-1-2', 'cor-run-2-4']);
    await subscription.close();
    await client.close();
  });

  it('replays the log with fromStart', async () => {
    const client = connectHttp({ baseUrl, agentId: 'rerun', taskId: 'report', onError: () => undefined });
    const seen: Correction[] = [];
    const subscription = client.onCorrection((c) => void seen.push(c), { fromStart: true });
    await until(() => seen.length === 4, 'the whole log');
    expect(seen.map((c) => c.eventId)).toEqual(['cor-run-1-1', 'cor-run-1-2', 'cor-run-1-3', 'cor-run-2-4']);
    await subscription.close();
    await client.close();
  });
});
