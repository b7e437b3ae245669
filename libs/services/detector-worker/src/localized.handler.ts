/**
 * detector-worker (DESIGN §3, §5.3, §7): runs every detector on the localized steps of the agents whose
 * partitions this process owns and publishes the deviations. The engine is idempotent per agent (a step
 * at or below the last applied seq changes nothing), so at-least-once redelivery causes no double
 * deviation. Time-based stagnation runs on a timer.
 */
import { Controller, Inject, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { CognitiveMap, LocalizedStep } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { DetectionEngine } from '@wayfinder/detection';
import type { Embedder } from '@wayfinder/embeddings';
import { BUS, EMBEDDER, MAP_STORE, MapCache, POLICY_BOOK, type MapStore, type PolicyBook } from '@wayfinder/service-core';

export const STAGNATION_TICK_MS = 1_000;

@Controller()
export class LocalizedHandler implements OnModuleInit, OnModuleDestroy {
  readonly engine: DetectionEngine;
  private readonly maps: MapCache;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(MAP_STORE) mapStore: MapStore,
    @Inject(EMBEDDER) embedder: Embedder,
  ) {
    this.maps = new MapCache(mapStore);
    this.engine = new DetectionEngine({
      embedder,
      policyFor: (step) => this.policies.contextFor(step, this.maps.peek(step.tenantId, step.taskId)),
    });
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.tick(Date.now()), STAGNATION_TICK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  @EventPattern('wayfinder.localized.v1')
  async onLocalized(@Payload() localized: LocalizedStep): Promise<void> {
    const { step, position } = localized;
    // A localized position means the task has a map: load it so budgets and step times apply.
    if (position.method !== 'unknown') await this.maps.get(step.tenantId, step.taskId);
    const deviations = this.engine.onStep(step, position.method === 'unknown' ? undefined : position);
    if (deviations.length > 0) await this.bus.publish('wayfinder.deviations.v1', deviations);
  }

  @EventPattern('wayfinder.maps.v1')
  onMap(@Payload() map: CognitiveMap): void {
    this.maps.offer(map);
  }

  async tick(nowMs: number): Promise<void> {
    const deviations = this.engine.tick(nowMs);
    if (deviations.length > 0) await this.bus.publish('wayfinder.deviations.v1', deviations);
  }
}
