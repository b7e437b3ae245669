/**
 * A rollback drops the messages that came with steps after `discardAfterSeq`. The mapping: each
 * message is recorded with the seq of the latest step the client had built when it joined the context
 * (`seqs.record(message, client.lastSeq)`); unrecorded messages inherit the seq before them; the
 * prompt and the task (before any step) always stay. A note says what went (turns, messages), back to
 * which step, and why.
 */
import { createGuard } from '../connect';
import { applyCorrection, MessageSeqs, type ChatMessage } from './apply-correction';
import { rollback } from './correction-fixtures.testing';

describe('applyCorrection: rollback', () => {
  it('keeps the messages up to the checkpoint seq and drops the rest', async () => {
    const client = createGuard({ agentId: 'agent-1', taskId: 'report' });
    const seqs = new MessageSeqs();
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are a data analyst.' },
      { role: 'user', content: 'Write the sales report.' },
    ];
    const say = (message: ChatMessage) => messages.push(seqs.record(message, client.lastSeq));
    for (const [i, file] of ['a.csv', 'b.csv', 'c.csv'].entries()) {
      const callId = await client.action('read_file', { path: file });
      say({ role: 'assistant', content: `calling read_file ${file}`, tool_calls: [{ id: callId }] } as ChatMessage);
      await client.observation('read_file', { callId, content: `rows of ${file}` });
      say({ role: 'tool', content: `rows of ${file}`, tool_call_id: callId } as ChatMessage);
      if (i === 0) await client.milestone('read-data', 'done');
    }
    messages.push({ role: 'assistant', content: 'unrecorded: inherits seq 7' });
    // seqs: a.csv action 0 / obs 1, milestone 2, b.csv 3/4, c.csv 5/6 — roll back to the milestone.
    expect(client.lastSeq).toBe(6);

    const out = applyCorrection(messages, rollback(2, 'read-data'), { seqs });
    expect(out.map((m) => m.content)).toEqual([
      'You are a data analyst.',
      'Wayfinder rolled back your last 3 turns (5 messages), back to step 2 (milestone read-data): read_file returned the same error 5 times. They are no longer in this conversation; continue from there and do not repeat them.',
      'Write the sales report.',
      'calling read_file a.csv',
      'rows of a.csv',
    ]);
    await client.close();
  });

  it('rolls back to the task when there is no checkpoint, and needs the seqs', () => {
    const seqs = new MessageSeqs();
    const messages = [{ role: 'user', content: 'task' }, seqs.record({ role: 'assistant', content: 'step 0' }, 0)];
    expect(applyCorrection(messages, rollback(-1, null), { seqs }).map((m) => m.content)).toEqual([
      'Wayfinder rolled back your last 1 turn (1 message), back to the start: read_file returned the same error 5 times. They are no longer in this conversation; continue from there and do not repeat them.',
      'task',
    ]);
    expect(() => applyCorrection(messages, rollback(-1, null))).toThrow('a rollback needs options.seqs');
  });
});
