/**
 * One detector worker's batch loop (DESIGN §7): restore the state of the batch's agents when another
 * worker touched them since (a partition moved), run the detectors, publish the deviations, write the
 * touched agents' state back in one round trip — and only then let the bus commit. A crash anywhere
 * loses at most this batch, which is redelivered: steps already applied are skipped by the engine
 * (seq/eventId), and a deviation published twice carries the same eventId, so nothing downstream
 * doubles. No per-event network round trip: at most three per batch.
 *
 * Semantic embedders (DESIGN §5.6): after the restore and right before the synchronous detector loop,
 * the batch's texts are embedded in one prefetch (`prepare`), so no other batch can run in between and
 * evict them from the cache before the detectors read them.
 */
import type { Deviation, LocalizedStep } from '@wayfinder/contracts';
import type { DetectionEngine } from '@wayfinder/detection';
import type { AgentRef, DetectorStateStore } from './detector-state.store';

export class DetectorWorker {
  /** The store version of each agent's state this worker last read or wrote. */
  private readonly known = new Map<string, number>();

  constructor(
    readonly engine: DetectionEngine,
    private readonly store: DetectorStateStore | undefined,
    private readonly publish: (deviations: Deviation[]) => Promise<void>,
    /** Told when an agent's stored state cannot be read (its detection starts over). */
    private readonly onUnreadableState?: (agent: AgentRef) => void,
    /** Embeds ahead what the engine will read from a semantic embedder (no-op with hashing only). */
    private readonly prepare?: (batch: readonly LocalizedStep[]) => Promise<void>,
  ) {}

  async handleBatch(batch: readonly LocalizedStep[]): Promise<Deviation[]> {
    const agents = distinctAgents(batch);
    if (this.store) await this.restoreStale(agents);
    if (this.prepare) await this.prepare(batch);
    const deviations: Deviation[] = [];
    for (const { step, position } of batch) {
      for (const d of this.engine.onStep(step, position.method === 'unknown' ? undefined : position)) deviations.push(d);
    }
    if (deviations.length > 0) await this.publish(deviations);
    if (this.store) await this.persist(agents);
    return deviations;
  }

  private async restoreStale(agents: AgentRef[]): Promise<void> {
    const versions = await this.store!.versions(agents);
    const stale = agents.filter((a, i) => versions[i] !== (this.known.get(refKey(a)) ?? 0));
    if (stale.length === 0) return;
    const loaded = await this.store!.load(stale);
    stale.forEach((agent, i) => {
      const stored = loaded[i];
      if (stored && this.imported(agent, stored.state)) {
        this.known.set(refKey(agent), stored.version);
      } else if (stored) {
        // Unreadable (corrupt, or written by an incompatible build): detection restarts for this agent
        // rather than the batch failing on every redelivery.
        this.engine.forgetAgent(agent.tenantId, agent.agentId);
        this.known.set(refKey(agent), stored.version);
        this.onUnreadableState?.(agent);
      } else {
        this.engine.forgetAgent(agent.tenantId, agent.agentId);
        this.known.delete(refKey(agent));
      }
    });
  }

  private imported(agent: AgentRef, state: Uint8Array): boolean {
    try {
      this.engine.importAgentState(agent.tenantId, agent.agentId, state);
      return true;
    } catch {
      return false;
    }
  }

  private async persist(agents: AgentRef[]): Promise<void> {
    const writes: Array<AgentRef & { state: Uint8Array }> = [];
    for (const agent of agents) {
      const state = this.engine.exportAgentState(agent.tenantId, agent.agentId);
      if (state) writes.push({ ...agent, state });
    }
    const versions = await this.store!.save(writes);
    writes.forEach((w, i) => this.known.set(refKey(w), versions[i]));
  }
}

function distinctAgents(batch: readonly LocalizedStep[]): AgentRef[] {
  const seen = new Map<string, AgentRef>();
  for (const { step } of batch) {
    const ref = { tenantId: step.tenantId, agentId: step.agentId };
    const key = refKey(ref);
    if (!seen.has(key)) seen.set(key, ref);
  }
  return [...seen.values()];
}

function refKey(ref: AgentRef): string {
  return `${ref.tenantId}\u0000${ref.agentId}`;
}
