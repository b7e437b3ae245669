/**
 * The StepSeqs port: the seqs of the steps a door numbers itself (Claude Code hooks, the MCP door),
 * small and dense per agent run: 1, 2, 3… (the correction ladder counts steps by seq, and a hint that
 * quotes "seq 7" reads better than a clock-sized number). A delivery numbered once (a hook sent again,
 * the same `tool_use_id` and event) gets no second seq: `next` answers undefined and the step is not
 * published twice.
 * Adapters: InMemoryStepSeqs (embedded: the pipeline's state lives and dies with the process too) and
 * RedisStepSeqs (`@wayfinder/redis`, distributed: every gateway instance counts on the same run, and a
 * restarted instance counts on rather than starting again at 1, which the localizer would drop as stale).
 */
import { TenantShares } from './tenant-shares';

/** Which run a step belongs to. */
export interface StepRun {
  readonly tenantId: string;
  readonly agentId: string;
  readonly runId: string;
}

export interface StepSeqs {
  /** The run's next seq (the first is 1); undefined when `delivery` of this run was numbered already. */
  next(run: StepRun, delivery?: string): Promise<number | undefined>;
}

export interface InMemoryStepSeqsLimits {
  /** Runs remembered, all tenants together. */
  readonly maxRuns: number;
  /** Runs one tenant may hold (past it, its own least recently used go first). */
  readonly maxRunsPerTenant: number;
  /** Deliveries remembered per run (the most recent), against redelivery. */
  readonly seenPerRun: number;
}

export const DEFAULT_STEP_SEQS_LIMITS: InMemoryStepSeqsLimits = { maxRuns: 50_000, maxRunsPerTenant: 10_000, seenPerRun: 256 };

/**
 * Bounded in per-tenant shares: one tenant's many runs evict only its own least recently used runs. A run
 * evicted and seen again starts at 1 again (its steps are then at or below the last seq localized and
 * dropped as duplicates): with the bounds above that takes 10,000 newer runs of the same tenant.
 */
export class InMemoryStepSeqs implements StepSeqs {
  private readonly runs: TenantShares<{ last: number; seen: Set<string> }>;
  private readonly limits: InMemoryStepSeqsLimits;

  constructor(limits: Partial<InMemoryStepSeqsLimits> = {}) {
    this.limits = { ...DEFAULT_STEP_SEQS_LIMITS, ...limits };
    this.runs = new TenantShares({ total: this.limits.maxRuns, perTenant: Math.min(this.limits.maxRuns, this.limits.maxRunsPerTenant) });
  }

  async next(run: StepRun, delivery?: string): Promise<number | undefined> {
    const key = `${run.agentId}\u0000${run.runId}`;
    const state = this.runs.get(run.tenantId, key) ?? { last: 0, seen: new Set<string>() };
    this.runs.set(run.tenantId, key, state); // re-inserted: the least recently used go first
    if (delivery !== undefined) {
      if (state.seen.has(delivery)) return undefined;
      state.seen.add(delivery);
      if (state.seen.size > this.limits.seenPerRun) state.seen.delete(state.seen.values().next().value as string);
    }
    return ++state.last;
  }
}
