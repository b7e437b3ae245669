/**
 * detector-worker (DESIGN §3, §5.3, §7): runs every detector on the localized steps of the agents whose
 * partitions this process owns and publishes the deviations. Batches are handled whole (DetectorWorker):
 * state restored from the store when another worker touched an agent since, deviations published, state
 * written back — then the bus commits. Time-based stagnation runs on a timer.
 */
import { Controller, Inject, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { CognitiveMap, Deviation, LocalizedStep, Suppression } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus } from '@wayfinder/bus';
import { DetectionEngine, DriftDetector } from '@wayfinder/detection';
import type { Embedder } from '@wayfinder/embeddings';
import { SuppressionBook } from '@wayfinder/history';
import { BUS, EMBEDDER, MAP_STORE, MapCache, POLICY_BOOK, type MapStore, type PolicyBook } from '@wayfinder/service-core';
import { navigationMetrics } from '@wayfinder/telemetry';
import { DETECTOR_STATE_STORE, type DetectorStateStore } from './detector-state.store';
import { DetectorWorker } from './detector-worker';

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
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(MAP_STORE) mapStore: MapStore,
    @Inject(EMBEDDER) embedder: Embedder,
    @Optional() @Inject(DETECTOR_STATE_STORE) stateStore?: DetectorStateStore,
  ) {
    this.maps = new MapCache(mapStore);
    this.engine = new DetectionEngine({
      embedder,
      policyFor: (step) => this.policies.contextFor(step, this.maps.peek(step.tenantId, step.taskId)),
      extraDetectors: [new DriftDetector(embedder)],
    });
    this.worker = new DetectorWorker(
      this.engine,
      stateStore,
      (deviations) => this.publishDeviations(deviations),
      (agent) => this.logger.warn(`unreadable detector state of ${agent.tenantId}/${agent.agentId}: its detection starts over`),
    );
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.tick(Date.now()), STAGNATION_TICK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  @BatchEventPattern('wayfinder.localized.v1')
  async onLocalized(@Payload() batch: LocalizedStep[]): Promise<void> {
    const steps = batch.map((l) => l.step);
    this.metrics.stepsProcessed(steps, 'detector-worker');
    for (const { step, position } of batch) {
      // A localized position means the task has a map: load it so budgets and step times apply.
      if (position.method !== 'unknown') await this.maps.get(step.tenantId, step.taskId);
    }
    const deviations = await this.worker.handleBatch(batch);
    this.metrics.detected(steps, deviations);
  }

  @EventPattern('wayfinder.suppressions.v1')
  onSuppression(@Payload() suppression: Suppression): void {
    this.suppressions.apply(suppression);
  }

  private async publishDeviations(deviations: Deviation[]): Promise<void> {
    const now = Date.now();
    const kept = this.suppressions.size === 0 ? deviations : deviations.filter((d) => !this.suppressions.suppresses(d, now));
    if (kept.length > 0) await this.bus.publish('wayfinder.deviations.v1', kept);
  }

  @EventPattern('wayfinder.maps.v1')
  onMap(@Payload() map: CognitiveMap): void {
    this.maps.offer(map);
  }

  async tick(nowMs: number): Promise<void> {
    const deviations = this.engine.tick(nowMs);
    this.metrics.deviations(deviations);
    if (deviations.length > 0) await this.publishDeviations(deviations);
  }
}
