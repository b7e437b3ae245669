/**
 * An agent's pending correction, as the LLM proxy and the agent hooks deliver it (DESIGN §12): read from
 * the same correction log the corrections route serves (filled by the corrections feed), never from a
 * second path. Per agent, this instance remembers the log cursor it read up to and the newest correction,
 * so a request costs one read of what is new and one look at that correction's acknowledgement (a hint
 * applied by another instance is acknowledged there). Which correction is pending is the domain's
 * (`pendingCorrections`); applying guidance acknowledges it, so it goes in once. What it remembers is
 * bounded in per-tenant shares (issue #29): one tenant's many agents evict only that tenant's cursors.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Correction } from '@wayfinder/contracts';
import { pendingCorrections, type Guidance, type PendingCorrections } from '@wayfinder/ingest';
import { TenantShares, type CorrectionLog } from '@wayfinder/tenancy';
import { CORRECTION_LOG } from './tokens';

/** Optional override of AGENT_CURSOR_LIMITS (tests). */
export const AGENT_CURSORS = Symbol('wayfinder.agent-cursor-limits');

const PAGE = 100;
/** Agents remembered, all tenants together and per tenant. */
export const AGENT_CURSOR_LIMITS = { total: 50_000, perTenant: 10_000 } as const;

interface Seen {
  cursor?: string;
  newest?: Correction;
}

@Injectable()
export class AgentCorrections {
  private readonly agents: TenantShares<Seen>;

  constructor(@Inject(CORRECTION_LOG) private readonly log: CorrectionLog, @Optional() @Inject(AGENT_CURSORS) limits?: { total: number; perTenant: number }) {
    this.agents = new TenantShares(limits ?? AGENT_CURSOR_LIMITS);
  }

  /** Whether this instance remembers where it read the agent's log up to. */
  remembers(tenantId: string, agentId: string): boolean {
    return this.agents.has(tenantId, agentId);
  }

  async pending(tenantId: string, agentId: string): Promise<PendingCorrections> {
    const seen = this.agents.get(tenantId, agentId) ?? {};
    this.agents.set(tenantId, agentId, seen);
    for (;;) {
      const found = await this.log.after(tenantId, agentId, seen.cursor, PAGE);
      if (found.length === 0) break;
      seen.cursor = found[found.length - 1].cursor;
      seen.newest = found[found.length - 1].correction;
      if (found.length < PAGE) break;
    }
    if (!seen.newest) return {};
    const acked = (await this.log.ackOf(tenantId, agentId, seen.newest.eventId)) !== undefined;
    return pendingCorrections([{ correction: seen.newest, acked }]);
  }

  /** The guidance went in: acknowledged, so no request or hook delivers it again. */
  async applied(guidance: Guidance): Promise<void> {
    await this.log.ack(guidance.tenantId, guidance.agentId, guidance.eventId, 'applied');
  }
}
