/**
 * Agents of one tenant delegating to each other in the given order (cross_agent_cycle specs): one message
 * step per pair, `from` asking `to` (`attributes.delegateTo`), seqs counted per agent, one second apart.
 */
import type { StepEvent } from '@wayfinder/contracts';

export function delegationRounds(tenantId: string, pairs: ReadonlyArray<readonly [string, string]>): StepEvent[] {
  const seqs = new Map<string, number>();
  return pairs.map(([from, to], i) => {
    const seq = seqs.get(from) ?? 0;
    seqs.set(from, seq + 1);
    return {
      schema: 'wayfinder.step.v1', eventId: `${tenantId}-${from}-${seq}`, tenantId, agentId: from, taskId: 'pricing', runId: `run-${from}`, seq,
      ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), kind: 'message', message: { role: 'assistant', text: `please handle part ${i}` }, attributes: { delegateTo: to },
    };
  });
}
