/**
 * The false-positive suppressions in force (DESIGN §13): per agent, the patterns (detector, tool,
 * argsHash) an operator marked, each until its time. Fed by `wayfinder.suppression.v1` events, each the
 * agent's whole active set, so the newest event replaces the agent's entry. Bounded: an agent whose
 * patterns all expired is forgotten.
 */
import type { Deviation, Suppression } from '@wayfinder/contracts';

export class SuppressionBook {
  private readonly agents = new Map<string, Suppression>();

  apply(suppression: Suppression): boolean {
    const key = `${suppression.tenantId}\u0000${suppression.agentId}`;
    const current = this.agents.get(key);
    if (current && Date.parse(current.ts) > Date.parse(suppression.ts)) return false;
    // An empty set is kept (as the newest word on this agent) so that an older event cannot revive a cleared pattern.
    this.agents.set(key, suppression);
    return true;
  }

  /** Whether the deviation's pattern is suppressed for its agent at `nowMs`. */
  suppresses(deviation: Pick<Deviation, 'tenantId' | 'agentId' | 'detector' | 'evidence'>, nowMs: number): boolean {
    const key = `${deviation.tenantId}\u0000${deviation.agentId}`;
    const entry = this.agents.get(key);
    if (!entry || entry.patterns.length === 0) return false;
    if (entry.patterns.every((p) => Date.parse(p.until) <= nowMs)) {
      this.agents.delete(key);
      return false;
    }
    const tool = typeof deviation.evidence.tool === 'string' ? deviation.evidence.tool : null;
    const argsHash = typeof deviation.evidence.argsHash === 'string' ? deviation.evidence.argsHash : null;
    return entry.patterns.some((p) => p.detector === deviation.detector && p.tool === tool && p.argsHash === argsHash && Date.parse(p.until) > nowMs);
  }

  get size(): number {
    return this.agents.size;
  }
}
