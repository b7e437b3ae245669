/**
 * detector-worker (DESIGN §3, §5.3, §7): runs every detector on the localized steps of the agents whose
 * partitions this process owns and publishes the deviations, and each step with its deviations for the
 * correction engine (wayfinder.detected.v1). Batches are handled whole (DetectorWorker):
 * state restored from the store when another worker touched an agent since, deviations published, state
 * written back — then the bus commits. Time-based stagnation runs on a timer.
 */
import { Controller, Inject, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { DETECTED_SCHEMA, positionOnMap, type CognitiveMap, type DetectedStep, type DelegationSignal, type Deviation, type LocalizedStep, type Suppression } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus, type BusBatchContext } from '@wayfinder/bus';
import { systemClock, type Clock } from '@wayfinder/clock';
import { DelegationSignaller, DetectionEngine, plugInDetectors, type StepBounds } from '@wayfinder/detection';
import { hashingVectors, type PrefetchingVectorSource, type SyncEmbedder } from '@wayfinder/embeddings';
import { SuppressionBook } from '@wayfinder/history';
import { BUS, CLOCK, DETECTION_STEP_BOUNDS, dropStateOfRevokedPartitions, EMBEDDER, MAP_STORE, MapCache, PeriodicTask, POLICY_BOOK, STATE_SETTINGS, VECTORS, type MapStore, type PolicyBook, type StateSettings } from '@wayfinder/service-core';
import { navigationMetrics } from '@wayfinder/telemetry';
import { DETECTOR_STATE_STORE, type DetectorStateStore } from './detector-state.store';
import { DetectorWorker, type Detected } from './detector-worker';

export const STAGNATION_TICK_MS = 1_000;

@Controller()
export class LocalizedHandler implements OnModuleInit, OnModuleDestroy {
  readonly engine: DetectionEngine;
  readonly worker: DetectorWorker;
  /** Patterns operators marked false positive, per agent: their deviations are not published until they expire. */
  readonly suppressions = new SuppressionBook();
  private readonly maps: MapCache;
  private readonly metrics = navigationMetrics();
  private readonly logger = new Logger('detector-worker');
  private readonly timers: PeriodicTask[];
  /** Delegations and milestone progress, published for the tenant's cross_agent_cycle graph. */
  private readonly signaller = new DelegationSignaller();
  private readonly clock: Clock;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(MAP_STORE) mapStore: MapStore,
    @Inject(EMBEDDER) embedder: SyncEmbedder,
    @Optional() @Inject(DETECTOR_STATE_STORE) stateStore?: DetectorStateStore,
    @Optional() @Inject(VECTORS) semantic?: PrefetchingVectorSource | null,
    @Optional() @Inject(STATE_SETTINGS) settings?: StateSettings,
    @Optional() @Inject(CLOCK) clock?: Clock,
    @Optional() @Inject(DETECTION_STEP_BOUNDS) stepBounds?: StepBounds,
  ) {
    this.clock = clock ?? systemClock;
    this.maps = new MapCache(mapStore, this.clock.now);
    const vectors = semantic ?? { ...hashingVectors(embedder), embedsAhead: false, prefetch: async () => undefined };
    this.engine = new DetectionEngine({
      embedder,
      vectors,
      policyFor: (step) => this.policies.contextFor(step, this.maps.peek(step.tenantId, step.taskId)),
      extraDetectors: plugInDetectors(vectors, embedder),
      stepBounds,
      onStepCost: (tenantId, work, seconds) => this.metrics.detectionCost(tenantId, work, seconds),
      onDuplicate: (step, reason) => {
        this.metrics.duplicateStep(step.tenantId, 'detector-worker', reason);
        this.logger.debug(`duplicate step ${JSON.stringify(step.eventId)} of ${JSON.stringify(step.tenantId)}/${JSON.stringify(step.agentId)} (seq ${step.seq}, ${reason}): not applied again`);
      },
    });
    this.worker = new DetectorWorker(
      this.engine,
      stateStore,
      (detected) => this.publishDetected(detected),
      (agent) => this.logger.warn(`unreadable detector state of ${JSON.stringify(agent.tenantId)}/${JSON.stringify(agent.agentId)}: its detection starts over`),
      {
        idleTtlMs: settings?.idleTtlMs,
        idleTtlFor: (tenantId) => this.policies.tenant(tenantId)?.stateIdleTtlMs,
        maxAgents: settings?.maxAgents,
        now: this.clock.now,
        onConflict: (agents) => {
          for (const a of agents) this.metrics.stateConflict(a.tenantId, 'detector-worker');
          this.logger.warn(`${agents.length} agent(s) were written by another worker since this one read them (a partition moved): reloaded, batch retried`);
        },
      },
      semantic?.embedsAhead
        ? async (batch) => {
            const requests = batch.flatMap(({ step, position }) => this.engine.textsFor(step, positionOnMap(position)));
            if (requests.length > 0) await semantic.prefetch(requests);
          }
        : undefined,
    );
    if (settings?.groupIdOf) {
      dropStateOfRevokedPartitions(
        bus,
        settings.groupIdOf('detector-worker'),
        'wayfinder.localized.v1',
        this.worker.states,
        (agents, revoked) => this.logger.log(`partitions ${revoked.join(', ')} moved away: ${agents} agents written back and dropped from memory`),
        (error) => this.logger.error(`dropping the state of revoked partitions failed: ${(error as Error).message ?? String(error)}`),
      );
    }
    const onError = (name: string, error: unknown) => this.logger.error(`${name} failed (retried on the next tick): ${(error as Error).message ?? String(error)}`);
    this.timers = [
      new PeriodicTask({ name: 'stagnation tick', everyMs: STAGNATION_TICK_MS, run: () => this.tick(this.clock.now()), onError }),
      new PeriodicTask({ name: 'idle agent eviction', everyMs: settings?.evictEveryMs ?? 30_000, run: () => this.worker.states.evictIdle(), onError }),
    ];
  }

  onModuleInit(): void {
    for (const t of this.timers) t.start();
  }

  async onModuleDestroy(): Promise<void> {
    for (const t of this.timers) await t.stop();
  }

  @BatchEventPattern('wayfinder.localized.v1')
  async onLocalized(@Payload() batch: LocalizedStep[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    const steps = batch.map((l) => l.step);
    this.metrics.stepsProcessed(steps, 'detector-worker');
    for (const { step, position } of batch) {
      // A localized position means the task has a map: load it so budgets and step times apply.
      if (positionOnMap(position)) await this.maps.get(step.tenantId, step.taskId);
    }
    const deviations = await this.worker.handleBatch(batch, ctx?.getBatch?.()[0]?.partition ?? -1);
    this.metrics.detected(steps, deviations);
    this.metrics.detectionCostFlushed('detector-worker');
    // Delegations and progress go to the tenant's cycle detector (DelegationsHandler), keyed by tenant.
    const signals: DelegationSignal[] = [];
    for (const { step, position } of batch) signals.push(...this.signaller.signalsOf(step, position));
    if (signals.length > 0) await this.bus.publish('wayfinder.delegations.v1', signals);
  }

  @EventPattern('wayfinder.suppressions.v1')
  onSuppression(@Payload() suppression: Suppression): void {
    this.suppressions.apply(suppression);
  }

  /**
   * The deviations (but the suppressed) on wayfinder.deviations.v1 for every reader, and each step with its
   * deviations on wayfinder.detected.v1 for the correction engine (the ladder sees a step before its deviations).
   */
  private async publishDetected(detected: Detected[]): Promise<void> {
    const now = this.clock.now();
    const kept = (deviations: Deviation[]) => (this.suppressions.size === 0 ? deviations : deviations.filter((d) => !this.suppressions.suppresses(d, now)));
    const deviations = kept(detected.flatMap((d) => d.deviations));
    if (deviations.length > 0) await this.bus.publish('wayfinder.deviations.v1', deviations);
    const messages: DetectedStep[] = [];
    for (const { localized, deviations } of detected) {
      const caused = kept(deviations);
      if (localized) messages.push({ schema: DETECTED_SCHEMA, eventId: localized.eventId, tenantId: localized.tenantId, ts: localized.ts, agentId: localized.step.agentId, step: localized.step, position: localized.position, deviations: caused });
      else if (caused.length > 0) messages.push({ schema: DETECTED_SCHEMA, eventId: `${caused[0].eventId}:detected`.slice(0, 128), tenantId: caused[0].tenantId, ts: caused[0].ts, agentId: caused[0].agentId, deviations: caused });
    }
    if (messages.length > 0) await this.bus.publish('wayfinder.detected.v1', messages);
  }


  @EventPattern('wayfinder.maps.v1')
  onMap(@Payload() map: CognitiveMap): void {
    this.maps.offer(map);
  }

  async tick(nowMs: number): Promise<void> {
    const deviations = await this.worker.tick(nowMs);
    this.metrics.deviations(deviations);
  }
}
