/**
 * correction-engine (DESIGN §3, §5.4): deviations in, corrections and escalations out. It also reads the
 * localized steps, which tell it whether a corrected agent progressed (self-heal) and where the last
 * verified milestone is (rollback target). Detectors detect; this service decides.
 */
import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { CognitiveMap, Correction, Deviation, Escalation, LocalizedStep } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus } from '@wayfinder/bus';
import { CorrectionEngine } from '@wayfinder/correction';
import { LadderStage } from '@wayfinder/navigation';
import { BUS, MAP_STORE, MapCache, POLICY_BOOK, type MapStore, type PolicyBook } from '@wayfinder/service-core';
import { navigationMetrics } from '@wayfinder/telemetry';

@Controller()
export class CorrectionHandler {
  readonly engine = new CorrectionEngine();
  private readonly ladder: LadderStage;
  private readonly maps: MapCache;
  private readonly metrics = navigationMetrics();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(MAP_STORE) mapStore: MapStore,
  ) {
    this.maps = new MapCache(mapStore);
    this.ladder = new LadderStage(this.engine, (subject) => policies.policyOf(subject.tenantId, subject.taskId, subject.agentId));
  }

  @EventPattern('wayfinder.maps.v1')
  onMap(@Payload() map: CognitiveMap): void {
    this.maps.offer(map);
  }

  /** Whole batches: the ladder only needs to see each step, and one Nest call per batch is cheaper. */
  @BatchEventPattern('wayfinder.localized.v1')
  async onLocalized(@Payload() batch: LocalizedStep[]): Promise<void> {
    this.metrics.stepsProcessed(batch.map((l) => l.step), 'correction-engine');
    for (const { step, position } of batch) {
      const map = await this.maps.get(step.tenantId, step.taskId);
      const before = this.engine.stats();
      this.ladder.onStep(step, position.method === 'unknown' ? undefined : position, map);
      this.metrics.selfHealBetween(step.tenantId, before, this.engine.stats());
    }
  }

  /**
   * One publish of corrections and one of escalations per batch. A redelivered deviation (its batch failed
   * before) gets its first decision again, published again with the same event ids in case that publish
   * was what failed; decisions are counted once, when first made.
   */
  @BatchEventPattern('wayfinder.deviations.v1')
  async onDeviations(@Payload() batch: Deviation[]): Promise<void> {
    const corrections: Correction[] = [];
    const escalations: Escalation[] = [];
    for (const deviation of batch) {
      const map = await this.maps.get(deviation.tenantId, deviation.taskId);
      const before = this.engine.stats();
      const decided = this.ladder.onDeviation(deviation, map);
      this.metrics.selfHealBetween(deviation.tenantId, before, this.engine.stats());
      corrections.push(...decided.corrections);
      escalations.push(...decided.escalations);
      if (decided.replayed) continue;
      for (const correction of decided.corrections) this.metrics.correction(correction, deviation);
      for (const escalation of decided.escalations) this.metrics.escalation(escalation);
    }
    // Shadow-mode tenants (policy `shadow: true`): decided and recorded as would-send, never sent or escalated.
    const shadow = (tenantId: string) => this.policies.tenant(tenantId)?.shadow === true;
    const sent = corrections.filter((c) => !shadow(c.tenantId));
    const withheld = corrections.filter((c) => shadow(c.tenantId));
    const escalated = escalations.filter((e) => !shadow(e.tenantId));
    if (sent.length > 0) await this.bus.publish('wayfinder.corrections.v1', sent);
    if (withheld.length > 0) await this.bus.publish('wayfinder.would-send.v1', withheld);
    if (escalated.length > 0) await this.bus.publish('wayfinder.escalations.v1', escalated);
  }
}
