/**
 * ProxyRollbacks: after a rollback the removed messages stay out of the agent's later requests while the
 * conversation still begins with the one rolled back; a conversation compacted or edited since (other
 * messages at those places, even a longer one) is forwarded as sent, and so is another run's.
 */
import type { Correction } from '@wayfinder/contracts';
import type { ChatMessage, Guidance } from '@wayfinder/ingest';
import { ProxyRollbacks, type RollbackableRequest } from './proxy-rollback';

const call = (id: string): ChatMessage => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: '{}' } }] });
const result = (id: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content: `rows ${id}` });

function request(messages: ChatMessage[]): RollbackableRequest {
  const forwardable = (kept: ChatMessage[]) => ({ body: { messages: kept }, withGuidance: (text: string) => ({ messages: [{ role: 'system', content: text }, ...kept] }) });
  return { messages, ...forwardable(messages), without: (removed) => forwardable(messages.filter((_, i) => !removed.has(i))) };
}

const rollback = { tenantId: 't', agentId: 'a', eventId: 'rb', action: 'rollback', reason: 'looping', rollback: { checkpointId: null, milestoneId: null, discardAfterSeq: 1 } } as Correction as Guidance;
const turnOf = (messages: ChatMessage[], runId = 'r1') => ({ tenantId: 't', agentKey: 't\u0000a\u0000a', runId, answerSeq: messages.filter((m) => m.role !== 'user').length });

describe('ProxyRollbacks', () => {
  const looped = [{ role: 'user', content: 'task' }, call('c1'), result('c1'), call('c2'), result('c2'), call('c3'), result('c3')];

  it('removes the looped turns, then keeps them out while the conversation begins with the rolled-back one', () => {
    const rollbacks = new ProxyRollbacks();
    expect(rollbacks.body(turnOf(looped), request(looped), rollback)).toEqual({
      messages: [{ role: 'system', content: 'Wayfinder rolled back your last 2 turns (4 messages), back to step 1: looping. They are no longer in this conversation; continue from there and do not repeat them.' }, ...looped.slice(0, 3)],
    });
    const next = [...looped, call('c4'), result('c4')];
    expect(rollbacks.body(turnOf(next), request(next), undefined)).toEqual({ messages: [...looped.slice(0, 3), call('c4'), result('c4')] });
  });

  it('forwards a rewritten conversation (even a longer one) and another run as sent', () => {
    const rollbacks = new ProxyRollbacks();
    rollbacks.body(turnOf(looped), request(looped), rollback);
    const compacted = [{ role: 'user', content: 'task (summary: read c1 to c3)' }, call('c5'), result('c5'), call('c6'), result('c6'), call('c7'), result('c7'), call('c8'), result('c8')];
    expect(rollbacks.body(turnOf(compacted), request(compacted), undefined)).toEqual({ messages: compacted });
    const rollbacksOfRun = new ProxyRollbacks();
    rollbacksOfRun.body(turnOf(looped), request(looped), rollback);
    expect(rollbacksOfRun.body(turnOf(looped, 'r2'), request(looped), undefined)).toEqual({ messages: looped });
  });
});
