/**
 * The CorrectionLog port: each agent's recent corrections, kept so that an agent connecting late or
 * reconnecting gets what it missed (DESIGN §12). Bounded per agent, with a TTL; cursors are increasing
 * per agent (`<ms>-<n>`, Redis stream ids); a correction is kept once however often it is redelivered.
 * Adapters: InMemoryCorrectionLog (embedded) and RedisCorrectionLog; both pass `correctionLogContract`.
 */
import { systemClock } from '@wayfinder/clock';
import type { Correction } from '@wayfinder/contracts';
import { TenantShares } from './tenant-shares';

export interface LoggedCorrection {
  readonly cursor: string;
  readonly correction: Correction;
}

export type AckOutcome = 'applied' | 'ignored';

export interface CorrectionLog {
  /** Appends corrections to their agents' logs (a correction whose eventId is already logged is skipped). */
  append(corrections: readonly Correction[]): Promise<void>;
  /** The agent's corrections after `cursor` (from the oldest kept when undefined), at most `limit`. */
  after(tenantId: string, agentId: string, cursor: string | undefined, limit: number): Promise<LoggedCorrection[]>;
  find(tenantId: string, agentId: string, correctionId: string): Promise<LoggedCorrection | undefined>;
  /** Records that the agent applied (or ignored) a correction; false when this tenant's agent has no such correction. */
  ack(tenantId: string, agentId: string, correctionId: string, outcome: AckOutcome): Promise<boolean>;
  /** The recorded outcome of a correction, if acknowledged. */
  ackOf(tenantId: string, agentId: string, correctionId: string): Promise<AckOutcome | undefined>;
}

export interface CorrectionLogLimits {
  /** Corrections kept per agent (the oldest go first). */
  readonly maxPerAgent: number;
  /** How long a correction is kept (ms). */
  readonly ttlMs: number;
}

export const DEFAULT_CORRECTION_LOG_LIMITS: CorrectionLogLimits = { maxPerAgent: 256, ttlMs: 24 * 60 * 60 * 1000 };

const CURSOR = /^(\d{1,16})-(\d{1,16})$/;

export function isCursor(value: string): boolean {
  return CURSOR.test(value);
}

/** Orders two cursors: negative when a comes first. */
export function compareCursors(a: string, b: string): number {
  const [, am, an] = CURSOR.exec(a) ?? ['', '0', '0'];
  const [, bm, bn] = CURSOR.exec(b) ?? ['', '0', '0'];
  return Number(am) - Number(bm) || Number(an) - Number(bn);
}

/** The millisecond part of a cursor (when it was logged). */
export function cursorTime(cursor: string): number {
  return Number(CURSOR.exec(cursor)?.[1] ?? 0);
}

interface Entry {
  cursor: string;
  correction: Correction;
  ack?: AckOutcome;
}

interface AgentLog {
  entries: Entry[];
  lastCursor?: string;
}

export class InMemoryCorrectionLog implements CorrectionLog {
  /** Agents' logs, in per-tenant shares: one tenant's many agents evict only its own least recently written logs. */
  private readonly agents: TenantShares<AgentLog>;
  private readonly limits: CorrectionLogLimits;
  private readonly now: () => number;

  constructor(options: Partial<CorrectionLogLimits> & { now?: () => number; maxAgents?: number; maxAgentsPerTenant?: number } = {}) {
    this.limits = { ...DEFAULT_CORRECTION_LOG_LIMITS, ...options };
    this.now = options.now ?? systemClock.now;
    const total = options.maxAgents ?? 100_000;
    this.agents = new TenantShares({ total, perTenant: Math.min(total, options.maxAgentsPerTenant ?? 25_000) });
  }

  async append(corrections: readonly Correction[]): Promise<void> {
    for (const correction of corrections) {
      const log = this.agents.get(correction.tenantId, correction.agentId) ?? { entries: [] };
      this.agents.set(correction.tenantId, correction.agentId, log); // re-inserted: least recently written go first
      this.expire(log);
      if (log.entries.some((e) => e.correction.eventId === correction.eventId)) continue;
      const cursor = this.nextCursor(log.lastCursor);
      log.lastCursor = cursor;
      log.entries.push({ cursor, correction });
      if (log.entries.length > this.limits.maxPerAgent) log.entries.splice(0, log.entries.length - this.limits.maxPerAgent);
    }
  }

  async after(tenantId: string, agentId: string, cursor: string | undefined, limit: number): Promise<LoggedCorrection[]> {
    const log = this.agents.get(tenantId, agentId);
    if (!log) return [];
    this.expire(log);
    return log.entries
      .filter((e) => cursor === undefined || compareCursors(e.cursor, cursor) > 0)
      .slice(0, limit)
      .map((e) => ({ cursor: e.cursor, correction: e.correction }));
  }

  async find(tenantId: string, agentId: string, correctionId: string): Promise<LoggedCorrection | undefined> {
    const entry = this.entry(tenantId, agentId, correctionId);
    return entry && { cursor: entry.cursor, correction: entry.correction };
  }

  async ack(tenantId: string, agentId: string, correctionId: string, outcome: AckOutcome): Promise<boolean> {
    const entry = this.entry(tenantId, agentId, correctionId);
    if (!entry) return false;
    entry.ack = outcome;
    return true;
  }

  async ackOf(tenantId: string, agentId: string, correctionId: string): Promise<AckOutcome | undefined> {
    return this.entry(tenantId, agentId, correctionId)?.ack;
  }

  private entry(tenantId: string, agentId: string, correctionId: string): Entry | undefined {
    const log = this.agents.get(tenantId, agentId);
    if (!log) return undefined;
    this.expire(log);
    return log.entries.find((e) => e.correction.eventId === correctionId);
  }

  private expire(log: AgentLog): void {
    const oldest = this.now() - this.limits.ttlMs;
    let drop = 0;
    while (drop < log.entries.length && cursorTime(log.entries[drop].cursor) < oldest) drop++;
    if (drop > 0) log.entries.splice(0, drop);
  }

  private nextCursor(last: string | undefined): string {
    const ms = this.now();
    if (last === undefined || cursorTime(last) < ms) return `${ms}-0`;
    const [, lm, ln] = CURSOR.exec(last) as RegExpExecArray;
    return `${lm}-${Number(ln) + 1}`;
  }
}
