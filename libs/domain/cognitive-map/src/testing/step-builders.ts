/** Step and task builders for this library's specs (not exported: @wayfinder/testing owns the shared ones). */
import type { JsonValue, StepEvent, TaskSpec } from '@wayfinder/contracts';

let seq = 0;
const base = () => ({
  schema: 'wayfinder.step.v1' as const,
  eventId: `e${++seq}`,
  tenantId: 't1',
  ts: '2026-01-01T00:00:00.000Z',
  agentId: 'a1',
  taskId: 'task-1',
  runId: 'r1',
  seq,
});

export const action = (tool: string, args: Record<string, JsonValue> = {}): StepEvent => ({ ...base(), kind: 'action', action: { tool, args } });
export const observation = (tool: string, content?: JsonValue, ok = true): StepEvent => ({
  ...base(),
  kind: 'observation',
  observation: { tool, ok, ...(content !== undefined ? { content } : {}) },
});
export const message = (text: string, role: 'assistant' | 'user' = 'assistant'): StepEvent => ({ ...base(), kind: 'message', message: { role, text } });
export const milestone = (id: string, status: 'started' | 'done' | 'failed' = 'done'): StepEvent => ({ ...base(), kind: 'milestone', milestone: { id, status } });

export function task(goal: string, extra: Partial<TaskSpec> = {}): TaskSpec {
  return {
    schema: 'wayfinder.task.v1',
    eventId: 'task-event-1',
    tenantId: 't1',
    ts: '2026-01-01T00:00:00.000Z',
    taskId: 'task-1',
    goal,
    ...extra,
  };
}
