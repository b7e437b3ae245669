// Which steps delegate: attributes.delegateTo on a message or action, spawn tools with a target in their
// args, transfer_to_<agent> handoffs; never an agent delegating to itself or an ordinary tool call.
import { delegationOf, delegationSignalsOf } from './delegation-signal';
import { fleet } from './delegation.testing';

describe('delegation signals', () => {
  const f = fleet();
  it('reads attributes.delegateTo with its sub-task (EN and ZH)', () => {
    expect(delegationOf(f.delegate('a', 'b', 'Find the CEO!'))).toEqual({ to: 'b', subtask: 'find the ceo' });
    expect(delegationOf(f.delegate('a', 'b', '查找首席执行官。'))).toEqual({ to: 'b', subtask: '查找首席执行官' });
  });

  it('reads spawn tools and handoffs', () => {
    expect(delegationOf(f.spawn('a', 'Task', { subagent_type: 'researcher', prompt: 'look it up' }))).toEqual({ to: 'researcher', subtask: 'look it up' });
    expect(delegationOf(f.spawn('a', 'transfer_to_billing_agent', {}))).toEqual({ to: 'billing_agent' });
  });

  it('ignores ordinary tools, self-delegation and steps without a target', () => {
    expect(delegationOf(f.spawn('a', 'web_search', { agent: 'b', q: 'x' }))).toBeUndefined();
    expect(delegationOf(f.delegate('a', 'a', 'x'))).toBeUndefined();
    expect(delegationOf(f.spawn('a', 'spawn_agent', { task: 'no target' }))).toBeUndefined();
  });

  it('turns a milestone done into a progress signal keyed by tenant', () => {
    const [signal] = delegationSignalsOf(f.done('a', 'm1'));
    expect(signal).toMatchObject({ schema: 'wayfinder.delegation.v1', kind: 'progress', tenantId: 't1', agentId: 'a' });
  });
});
