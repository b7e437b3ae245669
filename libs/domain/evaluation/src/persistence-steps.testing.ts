/** Builders of small hand-checked trajectories for the goal-persistence specs. Test-only. */
import type { Anchor, JsonValue, StepEvent } from '@wayfinder/contracts';

const base = { schema: 'wayfinder.step.v1' as const, tenantId: 't', ts: '2026-01-01T00:00:00Z', agentId: 'a', taskId: 'task', runId: 'r' };
let n = 0;
const at = (seq: number) => ({ ...base, eventId: `e${n++}`, seq });

export const SOURCES: Anchor = { id: 'a-sources', text: 'at least 3 sources', target: 3, unit: 'sources', comparator: 'atLeast', hard: true };
export const COMPETITORS: Anchor = { id: 'a-competitors', text: 'at least 2 competitors', target: 2, unit: 'competitors', comparator: 'atLeast', hard: true };

export function action(seq: number, tool: string, args: Record<string, JsonValue>, tokens = 0): StepEvent {
  return { ...at(seq), kind: 'action', action: { tool, args }, ...(tokens ? { usage: { inputTokens: tokens } } : {}) };
}
export function observation(seq: number, content: JsonValue, tokens = 0): StepEvent {
  return { ...at(seq), kind: 'observation', observation: { tool: 'web_search', ok: true, content }, ...(tokens ? { usage: { outputTokens: tokens } } : {}) };
}
export function thought(seq: number, text: string): StepEvent {
  return { ...at(seq), kind: 'message', message: { role: 'assistant', type: 'thought', text } };
}
export function output(seq: number, text: string): StepEvent {
  return { ...at(seq), kind: 'message', message: { role: 'assistant', type: 'output', text } };
}
export function milestoneDone(seq: number, id: string): StepEvent {
  return { ...at(seq), kind: 'milestone', milestone: { id, status: 'done' } };
}
