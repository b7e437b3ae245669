/**
 * correction-engine (DESIGN §3, §5.4): deviations in, corrections and escalations out. It reads them with
 * the localized steps that caused them (wayfinder.detected.v1, from the detector worker: each step before
 * its deviations), which tell it whether a corrected agent progressed (self-heal) and where the last
 * verified milestone is (rollback target). Detectors detect; this service decides. Every agent's ladder
 * (rungs, limits used, freeze flag, checkpoint) is durable (DESIGN §7): restored before a batch that
 * touches it, written back before the batch is committed, evicted when idle.
 */
import { Controller, Inject, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { positionOnMap, type AgentControl, type CognitiveMap, type Correction, type DetectedStep, type Deviation, type Escalation, type Position, type StepEvent } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus, type BusBatchContext } from '@wayfinder/bus';
import { systemClock, type Clock } from '@wayfinder/clock';
import { CorrectionEngine } from '@wayfinder/correction';
import { LadderStage } from '@wayfinder/navigation';
import {
  AGENT_STATE_STORES,
  BUS,
  CLOCK,
  DurableAgentStates,
  distinctAgents,
  dropStateOfRevokedPartitions,
  MAP_STORE,
  MapCache,
  PeriodicTask,
  POLICY_BOOK,
  STATE_SETTINGS,
  type AgentStateStores,
  type MapStore,
  type PolicyBook,
  type StateSettings,
} from '@wayfinder/service-core';
import { navigationMetrics } from '@wayfinder/telemetry';

@Controller()
export class CorrectionHandler implements OnModuleInit, OnModuleDestroy {
  readonly engine: CorrectionEngine;
  readonly states: DurableAgentStates;
  private readonly ladder: LadderStage;
  private readonly maps: MapCache;
  private readonly metrics = navigationMetrics();
  private readonly logger = new Logger('correction-engine');
  private readonly eviction: PeriodicTask;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(MAP_STORE) mapStore: MapStore,
    @Optional() @Inject(AGENT_STATE_STORES) stores?: AgentStateStores,
    @Optional() @Inject(STATE_SETTINGS) settings?: StateSettings,
    @Optional() @Inject(CLOCK) clock: Clock = systemClock,
  ) {
    this.engine = new CorrectionEngine({ now: clock.now });
    this.maps = new MapCache(mapStore, clock.now);
    this.ladder = new LadderStage(this.engine, (subject) => policies.policyOf(subject.tenantId, subject.taskId, subject.agentId));
    this.states = new DurableAgentStates(this.engine, stores?.('correction'), {
      idleTtlMs: settings?.idleTtlMs,
      idleTtlFor: (tenantId) => policies.tenant(tenantId)?.stateIdleTtlMs,
      maxAgents: settings?.maxAgents,
      now: clock.now,
      onConflict: (agents) => {
        for (const a of agents) this.metrics.stateConflict(a.tenantId, 'correction-engine');
        this.logger.warn(`${agents.length} agent(s) were written by another instance since this one read them (a partition moved): reloaded, batch retried`);
      },
      onUnreadable: (agent, error) =>
        this.logger.warn(`unreadable correction state of ${JSON.stringify(agent.tenantId)}/${JSON.stringify(agent.agentId)} (${(error as Error).message}): its ladder starts over`),
    });
    if (settings?.groupIdOf) {
      // Detected steps, deviations and controls are co-partitioned (same key, same partition count): one set of partitions.
      dropStateOfRevokedPartitions(bus, settings.groupIdOf('correction-engine'), 'wayfinder.detected.v1', this.states, undefined, (error) =>
        this.logger.error(`dropping the state of revoked partitions failed: ${(error as Error).message ?? String(error)}`),
      );
    }
    this.eviction = new PeriodicTask({
      name: 'idle agent eviction',
      everyMs: settings?.evictEveryMs ?? 30_000,
      run: () => this.states.evictIdle(),
      onError: (name, error) => this.logger.error(`${name} failed: ${(error as Error).message}`),
    });
  }

  onModuleInit(): void {
    this.eviction.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.eviction.stop();
  }

  @EventPattern('wayfinder.maps.v1')
  onMap(@Payload() map: CognitiveMap): void {
    this.maps.offer(map);
  }

  /** A human resumed a frozen agent (through the gateway): its next steps are navigated again. */
  @EventPattern('wayfinder.controls.v1')
  async onControl(@Payload() control: AgentControl): Promise<void> {
    if (control.action !== 'resume') return;
    // Through the durable state: the ladder is restored first (a restart, a partition move) and the
    // unfrozen ladder is written back before the control's offset is committed.
    await this.states.run([{ tenantId: control.tenantId, agentId: control.agentId }], () => {
      this.engine.resume(control.tenantId, control.agentId);
    });
  }

  /**
   * What the detector worker decided, step by step (wayfinder.detected.v1): each step goes to the ladder
   * (self-heal, checkpoints) before the deviations it caused, as in the Navigator. One publish of
   * corrections and one of escalations per batch.
   */
  @BatchEventPattern('wayfinder.detected.v1')
  async onDetected(@Payload() batch: DetectedStep[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    const steps = batch.flatMap((d) => (d.step ? [d.step] : []));
    this.metrics.stepsProcessed(steps, 'correction-engine');
    const maps = await Promise.all(batch.map((d) => (d.step ? this.maps.get(d.step.tenantId, d.step.taskId) : d.deviations[0] && this.maps.get(d.tenantId, d.deviations[0].taskId))));
    await this.decide(
      batch.map((d, i) => ({ ...d, map: maps[i] })),
      partitionOf(ctx),
    );
  }

  /**
   * Cross-agent cycles, decided by the tenant's one delegation graph (DelegationsHandler), come on
   * wayfinder.deviations.v1 with no step of their own; every other deviation comes with its step on
   * wayfinder.detected.v1.
   */
  @BatchEventPattern('wayfinder.deviations.v1')
  async onDeviations(@Payload() batch: Deviation[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    const across = batch.filter((d) => d.detector === 'cross_agent_cycle');
    if (across.length === 0) return;
    const maps = await Promise.all(across.map((d) => this.maps.get(d.tenantId, d.taskId)));
    await this.decide(across.map((d, i) => ({ tenantId: d.tenantId, agentId: d.agentId, deviations: [d], map: maps[i] })), partitionOf(ctx));
  }

  /**
   * The ladder's decisions on a batch, in order. A redelivered deviation (its batch failed before) gets its
   * first decision again, published again with the same event ids in case that publish was what failed;
   * decisions are counted once, when first made.
   */
  private async decide(
    batch: ReadonlyArray<{ tenantId: string; agentId: string; step?: StepEvent; position?: Position; deviations: readonly Deviation[]; map: CognitiveMap | undefined }>,
    partition: number,
  ): Promise<void> {
    // Shadow-mode tenants (policy `shadow: true`): decided and recorded as would-send, never sent or escalated.
    const shadow = (tenantId: string) => this.policies.tenant(tenantId)?.shadow === true;
    await this.states.run(
      distinctAgents(batch, (d) => d),
      async () => {
        const corrections: Correction[] = [];
        const escalations: Escalation[] = [];
        const counted: Array<() => void> = [];
        for (const { step, position, deviations, map } of batch) {
          if (step && position) {
            const before = this.engine.stats();
            this.ladder.onStep(step, positionOnMap(position), map);
            this.metrics.selfHealBetween(step.tenantId, before, this.engine.stats());
          }
          for (const deviation of deviations) {
            const before = this.engine.stats();
            const decided = this.ladder.onDeviation(deviation, map);
            this.metrics.selfHealBetween(deviation.tenantId, before, this.engine.stats());
            corrections.push(...decided.corrections);
            escalations.push(...decided.escalations);
            if (decided.replayed) continue;
            counted.push(() => {
              for (const correction of decided.corrections) this.metrics.correction(correction, deviation);
              for (const escalation of decided.escalations) this.metrics.escalation(escalation);
            });
          }
        }
        const sent = corrections.filter((c) => !shadow(c.tenantId));
        const withheld = corrections.filter((c) => shadow(c.tenantId));
        const escalated = escalations.filter((e) => !shadow(e.tenantId));
        if (sent.length > 0) await this.bus.publish('wayfinder.corrections.v1', sent);
        if (withheld.length > 0) await this.bus.publish('wayfinder.would-send.v1', withheld);
        if (escalated.length > 0) await this.bus.publish('wayfinder.escalations.v1', escalated);
        // Counted once published: a failed batch is decided again from the stored state and counted then.
        for (const count of counted) count();
      },
      partition,
    );
  }
}

/** The partition of a batch (-1 when called without a bus context, e.g. from a test). */
function partitionOf(ctx: BusBatchContext | undefined): number {
  return ctx?.getBatch?.()[0]?.partition ?? -1;
}
