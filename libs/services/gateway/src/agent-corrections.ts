/**
 * An agent's pending correction, as the LLM proxy and the agent hooks deliver it (DESIGN §12): read from
 * the same correction log the corrections route serves (filled by the corrections feed), never from a
 * second path. Per agent, this instance remembers the log cursor it read up to and the newest correction,
 * so a request costs one read of what is new and one look at that correction's acknowledgement (a hint
 * applied by another instance is acknowledged there). Which correction is pending is the domain's
 * (`pendingCorrections`); applying guidance acknowledges it, so it goes in once.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Correction } from '@wayfinder/contracts';
import { pendingCorrections, type Guidance, type PendingCorrections } from '@wayfinder/ingest';
import type { CorrectionLog } from '@wayfinder/tenancy';
import { CORRECTION_LOG } from './tokens';

const PAGE = 100;
const MAX_AGENTS = 50_000;

interface Seen {
  cursor?: string;
  newest?: Correction;
}

@Injectable()
export class AgentCorrections {
  private readonly agents = new Map<string, Seen>();

  constructor(@Inject(CORRECTION_LOG) private readonly log: CorrectionLog) {}

  async pending(tenantId: string, agentId: string): Promise<PendingCorrections> {
    const key = `${tenantId}\u0000${agentId}`;
    const seen = this.agents.get(key) ?? {};
    this.agents.delete(key);
    this.agents.set(key, seen);
    while (this.agents.size > MAX_AGENTS) this.agents.delete(this.agents.keys().next().value as string);
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
