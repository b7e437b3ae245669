/** The suppression event of an agent: every pattern still active among its false-positive marks. */
import { randomUUID } from 'node:crypto';
import type { Suppression } from '@wayfinder/contracts';
import type { FalsePositiveRecord } from '@wayfinder/history';

export function suppressionOf(tenantId: string, agentId: string, marks: readonly FalsePositiveRecord[], nowMs: number): Suppression {
  const active = marks.filter((m) => Date.parse(m.until) > nowMs).slice(-64);
  return {
    schema: 'wayfinder.suppression.v1', eventId: randomUUID(), tenantId, ts: new Date(nowMs).toISOString(), agentId,
    patterns: active.map((m) => ({ detector: m.detector, tool: m.tool, argsHash: m.argsHash, until: m.until, deviationId: m.deviationId })),
  };
}
