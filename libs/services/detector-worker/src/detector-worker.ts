/**
 * One detector worker's batch loop (DESIGN §7), on the services' durable agent state: restore the state
 * of the batch's agents when the store holds a version this worker did not see (a restart, a partition
 * that moved, an evicted agent), run the detectors, publish the deviations, write the touched agents'
 * state back in one round trip — and only then let the bus commit. A failed batch drops its agents'
 * state so the retry starts from the stored one and publishes the same deviations (same eventIds); a
 * redelivered step already applied is skipped by the engine (seq/eventId). At most three round trips
 * per batch, none per event.
 *
 * The deviations are handed to `publish` with the step that caused them (`Detected`), in step order: the
 * correction engine, when it runs as a service of its own, reads them so (wayfinder.detected.v1).
 *
 * Semantic embedders (DESIGN §5.6): after the restore and right before the synchronous detector loop,
 * the batch's texts are embedded in one prefetch (`prepare`), so no other batch can run in between and
 * evict them from the cache before the detectors read them.
 */
import { positionOnMap, type Deviation, type LocalizedStep } from '@wayfinder/contracts';
import type { DetectionEngine } from '@wayfinder/detection';
import { DurableAgentStates, distinctAgents, type DurableAgentStatesOptions } from '@wayfinder/service-core';
import type { AgentRef, DetectorStateStore } from './detector-state.store';

/** A localized step and the deviations it caused; a timer's deviations come without a step. */
export interface Detected {
  readonly localized?: LocalizedStep;
  readonly deviations: Deviation[];
}

/** Timer deviations kept for the next tick while the broker does not take them. */
const MAX_UNSENT = 10_000;

export class DetectorWorker {
  readonly states: DurableAgentStates;
  private readonly unsent: Deviation[] = [];

  constructor(
    readonly engine: DetectionEngine,
    store: DetectorStateStore | undefined,
    private readonly publish: (detected: Detected[]) => Promise<void>,
    /** Told when an agent's stored state cannot be read (its detection starts over). */
    onUnreadableState?: (agent: AgentRef) => void,
    options: Omit<DurableAgentStatesOptions, 'onUnreadable'> = {},
    /** Embeds ahead what the engine will read from a semantic embedder (no-op with hashing only). */
    private readonly prepare?: (batch: readonly LocalizedStep[]) => Promise<void>,
  ) {
    this.states = new DurableAgentStates(engine, store, { ...options, onUnreadable: (agent) => onUnreadableState?.(agent) });
  }

  /** `partition`: the batch's, so a rebalance that takes it away drops its agents (dropStateOfRevokedPartitions). */
  async handleBatch(batch: readonly LocalizedStep[], partition = -1): Promise<Deviation[]> {
    const agents = distinctAgents(batch, (l) => l.step);
    return this.states.run(agents, async () => {
      if (this.prepare) await this.prepare(batch);
      const detected: Detected[] = [];
      const deviations: Deviation[] = [];
      for (const localized of batch) {
        const caused = this.engine.onStep(localized.step, positionOnMap(localized.position));
        detected.push({ localized, deviations: caused });
        deviations.push(...caused);
      }
      await this.publish(detected);
      return deviations;
    }, partition);
  }

  /**
   * Time-based stagnation, from a timer. The runs that warned changed state (written back here); the
   * deviations are published before this resolves, and kept for the next tick when the publish fails,
   * so a broker outage delays them instead of losing them.
   */
  async tick(nowMs: number): Promise<Deviation[]> {
    const fresh = this.engine.tick(nowMs);
    if (fresh.length > 0) this.states.markDirty(distinctAgents(fresh, (d) => d));
    const deviations = this.unsent.length > 0 ? [...this.unsent.splice(0), ...fresh] : fresh;
    if (deviations.length === 0) return deviations;
    try {
      await this.publish(deviations.map((d) => ({ deviations: [d] })));
    } catch (error) {
      this.unsent.push(...deviations.slice(-MAX_UNSENT));
      throw error;
    }
    await this.states.flush();
    return deviations;
  }
}
