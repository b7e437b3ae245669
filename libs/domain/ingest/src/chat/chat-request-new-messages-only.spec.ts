// A looping agent's conversation grows by an assistant tool call and its result per request: each
// request's steps are only what is new since the last one (the proxy's own answer skipped), seqs are
// dense, and a restarted proxy re-derives the same steps (same seq and eventId) for downstream to drop.
// A rewritten conversation becomes a compaction step, and the steps after it carry on above it.
import { answerSteps, conversationRunId, requestSteps, rewriteStep, type ChatIdentity } from './chat-steps';
import { ConversationTracker } from './conversation-tracker';
import type { ChatMessage } from './chat-request';

const TS = '2026-01-01T00:00:00.000Z';
const opening: ChatMessage[] = [
  { role: 'system', content: 'You are the report agent.' },
  { role: 'user', content: 'Write the report.' },
];
const identity = (messages: ChatMessage[]): ChatIdentity => ({ tenantId: 'acme', agentId: 'a1', taskId: 'report', runId: conversationRunId(messages) });

/** The agent appends the answer it got (the call the proxy's answer made) and the call's same failure. */
function turn(messages: ChatMessage[]): void {
  const id = `call_${messages.length}`;
  messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: '{"path":"/data/sales.csv"}' } }] });
  messages.push({ role: 'tool', tool_call_id: id, content: 'Error: EACCES: permission denied' });
}

/** What the proxy does per request: admit, derive, commit, then answer (the answer's steps from the response). */
function proxyRequest(tracker: ConversationTracker, messages: ChatMessage[], answered: boolean) {
  const id = identity(messages);
  const admission = tracker.admit('acme/a1', id.runId, messages);
  const { steps, answerSeq } = requestSteps(messages, admission.from, id, admission.seqBase, TS, admission.answered);
  if (admission.rewrittenAt !== undefined) steps.unshift(rewriteStep(id, admission.rewrittenAt, TS, admission.before, messages.length));
  tracker.commit('acme/a1', id.runId, messages, admission, steps.at(-1)?.seq);
  const answer = answerSteps({ text: '', toolCalls: [{ id: `call_${messages.length}`, name: 'read_file', arguments: '{"path":"/data/sales.csv"}' }] }, id, answerSeq, TS, 12);
  if (answered) tracker.answered('acme/a1', id.runId, answer.at(-1)!.seq);
  return { steps, answer };
}

describe('chat requests to steps', () => {
  it('makes steps of the new messages only, with dense seqs', () => {
    const tracker = new ConversationTracker();
    const messages = [...opening];
    const first = proxyRequest(tracker, messages, true);
    expect(first.steps).toEqual([]); // system and user messages are instructions, not steps
    expect(first.answer).toEqual([expect.objectContaining({ seq: 0, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: 'call_2' }, usage: { latencyMs: 12 } })]);

    turn(messages);
    const second = proxyRequest(tracker, messages, true);
    // The assistant message at index 2 is the proxy's own answer: skipped; its tool result is new.
    expect(second.steps.map((s) => [s.kind, s.seq])).toEqual([['observation', 1]]);
    expect(second.steps[0]).toMatchObject({ observation: { tool: 'read_file', ok: false, callId: 'call_2', error: 'Error: EACCES: permission denied' } });
    expect(second.answer[0].seq).toBe(2);

    turn(messages);
    const third = proxyRequest(tracker, messages, true);
    expect(third.steps.map((s) => [s.kind, s.seq])).toEqual([['observation', 3]]);
    expect(third.answer[0].seq).toBe(4);
  });

  it('re-derives the same steps after a restart, so downstream drops them as duplicates', () => {
    const messages = [...opening];
    for (let i = 0; i < 3; i++) turn(messages);
    const before = new ConversationTracker();
    const all = proxyRequest(before, messages, false).steps;
    const afterRestart = proxyRequest(new ConversationTracker(), messages, false).steps;
    expect(afterRestart).toEqual(all);
    expect(new Set(all.map((s) => s.eventId)).size).toBe(all.length);
    expect(all.map((s) => [s.kind, s.seq])).toEqual([['action', 0], ['observation', 1], ['action', 2], ['observation', 3], ['action', 4], ['observation', 5]]);
  });

  it('gives a new conversation a run of its own', () => {
    const a = conversationRunId(opening);
    expect(conversationRunId([...opening, { role: 'assistant', content: 'x' }])).toBe(a);
    expect(conversationRunId([opening[0], { role: 'user', content: 'Another task.' }])).not.toBe(a);
    expect(conversationRunId(opening, 'run-7')).toBe('run-7');
  });

  it('turns a rewritten conversation into a compaction and carries the seqs on above it', () => {
    const tracker = new ConversationTracker();
    const messages = [...opening];
    for (let i = 0; i < 3; i++) turn(messages);
    const first = proxyRequest(tracker, messages, false);
    const lastSeq = first.steps.at(-1)!.seq;
    // Compacted: the history is summed up in one assistant message, the newest result kept.
    const compacted: ChatMessage[] = [...opening, { role: 'assistant', content: 'Summary: reading failed three times.' }, { role: 'tool', tool_call_id: 'call_6', content: 'Error: EACCES: permission denied' }];
    const after = proxyRequest(tracker, compacted, false).steps;
    expect(after.map((s) => [s.kind, s.seq])).toEqual([['compaction', lastSeq + 1], ['observation', lastSeq + 2]]);
  });

  it('reads tool call arguments that are not an object, and calls without a name', () => {
    const id = identity(opening);
    const steps = answerSteps({ text: 'ok', toolCalls: [{ name: '', arguments: '[1,2]' }, { name: 'search', arguments: 'not json' }] }, id, 10, TS);
    expect(steps.map((s) => (s.kind === 'action' ? [s.action.tool, s.action.args] : [s.kind]))).toEqual([['message'], ['unknown_tool', { value: [1, 2] }], ['search', { arguments: 'not json' }]]);
    expect(steps.map((s) => s.seq)).toEqual([10, 11, 12]);
  });
});
