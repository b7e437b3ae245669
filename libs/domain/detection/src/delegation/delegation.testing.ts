/** Steps of several agents of one tenant, for the cross_agent_cycle specs. Test-only. */
import type { JsonValue, StepEvent } from '@wayfinder/contracts';

export function fleet(tenantId = 't1') {
  const seqs = new Map<string, number>();
  const base = (agentId: string) => {
    const seq = seqs.get(agentId) ?? 0;
    seqs.set(agentId, seq + 1);
    return { schema: 'wayfinder.step.v1' as const, eventId: `${tenantId}-${agentId}-${seq}`, tenantId, agentId, taskId: `task-${agentId}`, runId: 'r1', seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString() };
  };
  return {
    delegate: (from: string, to: string, subtask: string): StepEvent => ({ ...base(from), kind: 'message', message: { role: 'assistant', text: subtask }, attributes: { delegateTo: to, subtask } }),
    spawn: (from: string, tool: string, args: Record<string, JsonValue>): StepEvent => ({ ...base(from), kind: 'action', action: { tool, args } }),
    done: (agentId: string, milestone: string): StepEvent => ({ ...base(agentId), kind: 'milestone', milestone: { id: milestone, status: 'done' } }),
    say: (agentId: string, text: string): StepEvent => ({ ...base(agentId), kind: 'message', message: { role: 'assistant', text } }),
  };
}
