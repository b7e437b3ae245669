import type { StepEvent } from '@wayfinder/contracts';
import { PendingSteps } from './pending-steps';

function step(agentId: string, seq: number, taskId = 'task1', tenantId = 't1'): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `${agentId}-${seq}`, tenantId, agentId, taskId, seq, ts: '2026-01-01T00:00:00Z', kind: 'compaction', compaction: { reason: 'x' } };
}

describe('PendingSteps', () => {
  it('releases the held steps of a task in per-agent order when its map arrives', () => {
    const pending = new PendingSteps({ maxPerAgent: 10, timeoutMs: 1000 });
    pending.hold(step('a', 1), 0);
    pending.hold(step('b', 1), 0);
    pending.hold(step('a', 2), 0);
    pending.hold(step('a', 1, 'other-task'), 0);
    const released = pending.release('t1', 'task1');
    expect(released.map((s) => s.eventId)).toEqual(['a-1', 'a-2', 'b-1']);
    expect(pending.size).toBe(1);
  });

  it('never releases another tenant’s steps for a task with the same id', () => {
    const pending = new PendingSteps({ maxPerAgent: 10, timeoutMs: 1000 });
    pending.hold(step('a', 1, 'task1', 't2'), 0);
    expect(pending.release('t1', 'task1')).toEqual([]);
    expect(pending.release('t2', 'task1')).toHaveLength(1);
  });

  it('hands back the oldest steps when an agent holds too many', () => {
    const pending = new PendingSteps({ maxPerAgent: 2, timeoutMs: 1000 });
    expect(pending.hold(step('a', 1), 0)).toEqual([]);
    expect(pending.hold(step('a', 2), 0)).toEqual([]);
    expect(pending.hold(step('a', 3), 0).map((s) => s.seq)).toEqual([1]);
    expect(pending.size).toBe(2);
  });

  it('expires an agent’s whole queue once its oldest step waited the timeout', () => {
    const pending = new PendingSteps({ maxPerAgent: 10, timeoutMs: 1000 });
    pending.hold(step('a', 1), 0);
    pending.hold(step('a', 2), 900);
    pending.hold(step('b', 1), 500);
    expect(pending.expired(999)).toEqual([]);
    expect(pending.expired(1000).map((s) => s.eventId)).toEqual(['a-1', 'a-2']);
    expect(pending.hasAgent(step('b', 1))).toBe(true);
    expect(pending.size).toBe(1);
  });
});
