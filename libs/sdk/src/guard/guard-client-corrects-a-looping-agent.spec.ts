/**
 * The guard is a WayfinderClient like the HTTP and Kafka ones: an agent loop written against the
 * client interface, run on the guard with no server, gets a hint into its context while it loops and is
 * stopped by AgentFrozenError when it keeps looping; a healthy agent gets nothing.
 */
import type { Correction } from '@wayfinder/contracts';
import { applyCorrection, AgentFrozenError, MessageSeqs, type ChatMessage } from '../apply/apply-correction';
import { createGuard } from '../connect';
import type { WayfinderClient } from '../wayfinder-client';

const CONTENTS: Record<string, string> = {
  '/data/customers.csv': 'id,name\n1,Ada\n2,Grace',
  '/data/orders.json': '[{"order":17,"total":120.5}]',
  '/data/regions.txt': 'north, south, east, west',
  '/data/fx-rates.yaml': 'EUR: 1.08\nGBP: 1.27',
  '/data/returns.log': '2026-01-03 return #88 accepted',
};

/** A chat agent that reads the same unreadable file until told otherwise (or stopped). */
async function runAgent(client: WayfinderClient, readPath: (i: number) => string, calls: number) {
  let messages: ChatMessage[] = [
    { role: 'system', content: 'You are a data analyst.' },
    { role: 'user', content: 'Write the sales report.' },
  ];
  const seqs = new MessageSeqs();
  const pending: Correction[] = [];
  const subscription = client.onCorrection((c) => void pending.push(c));
  let stoppedBy: AgentFrozenError | undefined;
  const applied: string[] = [];
  try {
    for (let i = 0; i < calls; i++) {
      const path = readPath(i);
      const callId = await client.action('read_file', { path });
      messages.push(seqs.record({ role: 'assistant', content: `read_file ${path}` }, client.lastSeq));
      const failed = path === '/data/sales.csv';
      await client.observation('read_file', failed ? { callId, error: 'EACCES: permission denied' } : { callId, content: CONTENTS[path] ?? `rows of ${path}` });
      messages.push(seqs.record({ role: 'tool', content: failed ? 'EACCES' : 'rows' }, client.lastSeq));
      await client.flush();
      for (const correction of pending.splice(0)) {
        messages = applyCorrection(messages, correction, { seqs });
        applied.push(correction.action);
        await client.ack(correction);
      }
    }
  } catch (error) {
    if (!(error instanceof AgentFrozenError)) throw error;
    stoppedBy = error;
  }
  await subscription.close();
  return { messages, applied, stoppedBy };
}

describe('the guard client', () => {
  it('hints, then freezes, an agent stuck on an unreadable file', async () => {
    const client = createGuard({ agentId: 'looper', taskId: 'sales-report' });
    const map = await client.task({ goal: 'Read the sales data -> compute the totals -> write the report' });
    expect(map?.milestones.map((m) => m.description)).toEqual(['Read the sales data', 'compute the totals', 'write the report']);
    const run = await runAgent(client, () => '/data/sales.csv', 25);
    expect(run.applied[0]).toBe('hint');
    expect(run.stoppedBy).toBeInstanceOf(AgentFrozenError);
    expect(run.stoppedBy?.message).toContain('wayfinder froze agent looper');
    // The hint of the ladder sits right after the system prompt (replaced by the rollback's note later).
    expect(run.messages[0].content).toBe('You are a data analyst.');
    expect(run.messages[1].role).toBe('system');
    expect(client.guard.ackOf((await firstCorrection(client)).eventId)).toBe('applied');
    await client.close();
  });

  it('leaves an agent that makes progress alone', async () => {
    const client = createGuard({ agentId: 'worker', taskId: 'sales-report' });
    const run = await runAgent(client, (i) => Object.keys(CONTENTS)[i], Object.keys(CONTENTS).length);
    expect(run.applied).toEqual([]);
    expect(run.stoppedBy).toBeUndefined();
    await client.close();
  });
});

async function firstCorrection(client: WayfinderClient): Promise<Correction> {
  const seen: Correction[] = [];
  const replay = client.onCorrection((c) => void seen.push(c), { after: '-1' });
  await client.flush();
  await replay.close();
  return seen[0];
}
