/**
 * The proxy's rollback (chatRollback) cuts the conversation by the SDK's rule over the proxy's dense seqs,
 * and never leaves a tool call without its result: a checkpoint between a call and its result takes the
 * call out too. The prompt and the task always stay, and a rollback that would remove everything removes nothing.
 */
import type { Correction } from '@wayfinder/contracts';
import type { ChatMessage } from './chat-request';
import { chatRollback } from './chat-rollback';

const rollbackTo = (discardAfterSeq: number) =>
  ({ action: 'rollback', reason: 'looping', rollback: { checkpointId: null, milestoneId: null, discardAfterSeq } }) as Extract<Correction, { action: 'rollback' }>;

const call = (id: string): ChatMessage => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: '{}' } }] });
const result = (id: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content: `rows ${id}` });

// seqs: c1 0, r1 1, c2 2, r2 3, c3 4, r3 5
const conversation: ChatMessage[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }, call('c1'), result('c1'), call('c2'), result('c2'), call('c3'), result('c3')];

describe('chatRollback', () => {
  it('removes the turns after the checkpoint, counting the model turns', () => {
    expect(chatRollback(conversation, 0, rollbackTo(3))).toEqual({ removed: [6, 7], turns: 1 });
    expect(chatRollback(conversation, 0, rollbackTo(1))).toEqual({ removed: [4, 5, 6, 7], turns: 2 });
  });

  it('takes a call out with its result when the checkpoint falls between them', () => {
    expect(chatRollback(conversation, 0, rollbackTo(2))).toEqual({ removed: [4, 5, 6, 7], turns: 2 });
  });

  it('counts from the conversation seq base, and a user message follows the step before it', () => {
    const withUser = [...conversation, { role: 'user', content: 'go on' }];
    expect(chatRollback(withUser, 10, rollbackTo(13))).toEqual({ removed: [6, 7, 8], turns: 1 });
  });

  it('keeps the prompt and task, and removes nothing when nothing would be left', () => {
    expect(chatRollback(conversation, 0, rollbackTo(-1))).toEqual({ removed: [2, 3, 4, 5, 6, 7], turns: 3 });
    expect(chatRollback([call('c1'), result('c1')], 0, rollbackTo(-1))).toEqual({ removed: [], turns: 0 });
  });
});
