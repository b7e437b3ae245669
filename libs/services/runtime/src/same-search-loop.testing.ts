/**
 * Agents stuck on the same search answered the same way — a loop the correction ladder climbs (hint,
 * replan, freeze) — for specs that stop a pipeline in the middle of the ladders.
 */
import type { StepEvent } from '@wayfinder/contracts';

/** Step `seq` of an agent: even seqs the call, odd ones its (unchanging) result. */
export function sameSearchStep(tenantId: string, agentId: string, seq: number): StepEvent {
  const base = { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-s${seq}`, tenantId, agentId, taskId: 'job', runId: 'r1', seq, ts: '2026-01-01T00:00:00.000Z' };
  const call = `c${Math.floor(seq / 2)}`;
  return seq % 2 === 0
    ? { ...base, kind: 'action', action: { tool: 'web_search', args: { q: 'acme pricing' }, callId: call } }
    : { ...base, kind: 'observation', observation: { tool: 'web_search', callId: call, ok: true, content: 'no results for acme pricing' } };
}

/** Steps `from` (included) to `to` (excluded) of every agent, agent by agent. */
export function sameSearchLoop(tenantId: string, agents: readonly string[], from: number, to: number): StepEvent[] {
  return agents.flatMap((a) => Array.from({ length: to - from }, (_, i) => sameSearchStep(tenantId, a, from + i)));
}
