/**
 * The navigator service (issue #28, DESIGN §3): the one-pass pipeline on the bus. One consumer of
 * wayfinder.steps.v1 per partition runs each batch through the domain's per-agent Navigator
 * (@wayfinder/navigation: localize → detect → correct, the same object replay, eval and the SDK guard
 * use), with each agent's one state document restored when stale, written back in one pipelined round
 * trip after the outputs are published, and only then committed. Outputs, corrections first: corrections
 * (would-send for shadow tenants), escalations, deviations, localized steps (for history, memory and
 * whoever subscribes), anchor changes. A step whose task has no map is navigated at once, without a
 * position; time-based stagnation runs on a timer; a resume control unfreezes an agent through its document.
 * Distributed (durable stores: a tenant's agents on several instances), cross_agent_cycle goes through the
 * tenant's one graph: the steps' delegation signals are published on wayfinder.delegations.v1, and the
 * graph's deviations come back on the deviations topic, keyed by agent, to the instance that owns it.
 */
import { Controller, Inject, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { LOCALIZED_SCHEMA, NO_MAP_POSITION, compositeKey, type AgentControl, type AnchorChange, type CognitiveMap, type Correction, type DelegationSignal, type Deviation, type Escalation, type LocalizedStep, type StepEvent, type Suppression } from '@wayfinder/contracts';
import { BatchEventPattern, settleAll, type Bus, type BusBatchContext } from '@wayfinder/bus';
import { systemClock, type Clock } from '@wayfinder/clock';
import { hashingVectors, type PrefetchingVectorSource, type SyncEmbedder } from '@wayfinder/embeddings';
import { SuppressionBook } from '@wayfinder/history';
import { CorrectionEngine } from '@wayfinder/correction';
import { createNavigator, type NavigationResult, type Navigator, type NavigatorOptions } from '@wayfinder/navigation';
import {
  AGENT_STATE_STORES,
  BUS,
  CLOCK,
  DETECTION_STEP_BOUNDS,
  DurableAgentStates,
  distinctAgents,
  dropStateOfRevokedPartitions,
  EMBEDDER,
  InMemoryAgentStateStore,
  MAP_STORE,
  MapCache,
  PeriodicTask,
  POLICY_BOOK,
  STATE_SETTINGS,
  VECTORS,
  type AgentStateStores,
  type MapStore,
  type PolicyBook,
  type StateSettings,
} from '@wayfinder/service-core';
import { navigationMetrics } from '@wayfinder/telemetry';
import { NavigationStateStore } from './stage-documents';

/** How often time-based stagnation is checked. */
export const NAVIGATOR_TICK_MS = 1_000;

/** What a batch (or a tick) decided, gathered for one publish per topic. */
class Outputs {
  readonly corrections: Correction[] = [];
  readonly withheld: Correction[] = [];
  readonly escalations: Escalation[] = [];
  readonly deviations: Deviation[] = [];
  readonly localized: LocalizedStep[] = [];
  readonly anchorChanges: AnchorChange[] = [];
  readonly delegations: DelegationSignal[] = [];
  /** Self-heal outcomes settled, per tenant: [healed, not healed]. */
  readonly selfHeals = new Map<string, [number, number]>();

  add(result: NavigationResult): void {
    for (const c of result.corrections) this.corrections.push(c);
    for (const c of result.withheld) this.withheld.push(c);
    for (const e of result.escalations) this.escalations.push(e);
    for (const d of result.deviations) this.deviations.push(d);
    if (result.anchorChanges) for (const a of result.anchorChanges) this.anchorChanges.push(a);
    if (result.delegations) for (const d of result.delegations) this.delegations.push(d);
    for (const s of result.selfHeals) {
      let counts = this.selfHeals.get(s.tenantId);
      if (!counts) this.selfHeals.set(s.tenantId, (counts = [0, 0]));
      counts[s.healed ? 0 : 1]++;
    }
  }
}

@Controller()
export class NavigationHandler implements OnModuleInit, OnModuleDestroy {
  readonly navigator: Navigator;
  /** The ladder's engine inside the navigator (freeze state, self-heal stats). */
  readonly engine: CorrectionEngine;
  readonly states: DurableAgentStates;
  /** Patterns operators marked false positive, per agent: their deviations are dropped until they expire. */
  readonly suppressions = new SuppressionBook();
  private readonly maps: MapCache;
  private readonly metrics = navigationMetrics();
  private readonly logger = new Logger('navigator');
  private readonly timers: PeriodicTask[];
  private readonly clock: Clock;
  /** Tick outputs kept for the next tick while the broker does not take them. */
  private unsent: Outputs | undefined;
  /** Distributed: cross_agent_cycle goes through the tenant's one graph (see the header). */
  private readonly crossAgentPublished: boolean;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) policies: PolicyBook,
    @Inject(MAP_STORE) mapStore: MapStore,
    @Inject(EMBEDDER) embedder: SyncEmbedder,
    @Optional() @Inject(VECTORS) semantic?: PrefetchingVectorSource | null,
    @Optional() @Inject(AGENT_STATE_STORES) stores?: AgentStateStores,
    @Optional() @Inject(STATE_SETTINGS) settings?: StateSettings,
    @Optional() @Inject(CLOCK) clock?: Clock,
    @Optional() @Inject(DETECTION_STEP_BOUNDS) stepBounds?: NavigatorOptions['stepBounds'],
  ) {
    this.clock = clock ?? systemClock;
    this.crossAgentPublished = stores !== undefined;
    this.maps = new MapCache(mapStore, this.clock.now);
    this.engine = new CorrectionEngine({ now: this.clock.now });
    this.navigator = createNavigator({
      correctionEngine: this.engine,
      policy: (subject) => policies.policyOf(subject.tenantId, subject.taskId, subject.agentId),
      contextFor: (step, map) => policies.contextFor(step, map),
      embedder,
      vectors: semantic ?? { ...hashingVectors(embedder), embedsAhead: false, prefetch: async () => undefined },
      now: this.clock.now,
      suppressed: (deviation) => this.suppressions.size > 0 && this.suppressions.suppresses(deviation, this.clock.now()),
      shadow: (tenantId) => policies.tenant(tenantId)?.shadow === true,
      onDuplicate: (step, reason) => this.metrics.duplicateStep(step.tenantId, 'navigator', reason),
      stepBounds,
      onStepCost: (tenantId, work, seconds) => this.metrics.detectionCost(tenantId, work, seconds),
      crossAgent: this.crossAgentPublished ? 'published' : 'in-process',
    });
    // Embedded (no stores), the documents stay in this process: a batch whose publish failed is still
    // retried from the state before it, so its corrections are decided and published again, not lost.
    const store = stores ? new NavigationStateStore(stores, (agent, error) => this.unreadable(agent, error)) : new InMemoryAgentStateStore();
    this.states = new DurableAgentStates(this.navigator, store, {
      idleTtlMs: settings?.idleTtlMs,
      idleTtlFor: (tenantId) => policies.tenant(tenantId)?.stateIdleTtlMs,
      maxAgents: settings?.maxAgents,
      now: this.clock.now,
      onConflict: (agents) => {
        for (const a of agents) this.metrics.stateConflict(a.tenantId, 'navigator');
        this.logger.warn(`${agents.length} agent(s) were written by another instance since this one read them (a partition moved): reloaded, batch retried`);
      },
      onUnreadable: (agent, error) => this.unreadable(agent, error),
    });
    if (settings?.groupIdOf) {
      dropStateOfRevokedPartitions(
        bus,
        settings.groupIdOf('navigator'),
        'wayfinder.steps.v1',
        this.states,
        (agents, revoked) => this.logger.log(`partitions ${revoked.join(', ')} moved away: ${agents} agents written back and dropped from memory`),
        (error) => this.logger.error(`dropping the state of revoked partitions failed: ${(error as Error).message ?? String(error)}`),
      );
    }
    const onError = (name: string, error: unknown) => this.logger.error(`${name} failed (retried on the next tick): ${(error as Error).message ?? String(error)}`);
    this.timers = [
      new PeriodicTask({ name: 'stagnation tick', everyMs: NAVIGATOR_TICK_MS, run: () => this.tick(this.clock.now()), onError }),
      new PeriodicTask({ name: 'idle agent eviction', everyMs: settings?.evictEveryMs ?? 30_000, run: () => this.states.evictIdle(), onError }),
    ];
  }

  onModuleInit(): void {
    for (const t of this.timers) t.start();
  }

  async onModuleDestroy(): Promise<void> {
    for (const t of this.timers) await t.stop();
  }

  @EventPattern('wayfinder.maps.v1')
  async onMap(@Payload() map: CognitiveMap): Promise<void> {
    if (this.maps.offer(map)) this.navigator.setMap(map.tenantId, map);
  }

  @EventPattern('wayfinder.suppressions.v1')
  onSuppression(@Payload() suppression: Suppression): void {
    this.suppressions.apply(suppression);
  }

  /** A human resumed a frozen agent (through the gateway): restored, unfrozen, written back before the commit. */
  @EventPattern('wayfinder.controls.v1')
  async onControl(@Payload() control: AgentControl): Promise<void> {
    if (control.action !== 'resume') return;
    await this.states.run([{ tenantId: control.tenantId, agentId: control.agentId }], () => {
      this.navigator.resume(control.tenantId, control.agentId);
    });
  }

  /**
   * The tenant graph's cross_agent_cycle deviations (distributed), for agents this instance owns: up the
   * agent's ladder through its document. The navigator's own deviations on the topic are skipped (in
   * process, the detection stage sees cycles and none come back).
   */
  @BatchEventPattern('wayfinder.deviations.v1')
  async onDeviations(@Payload() deviations: Deviation[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    if (!this.crossAgentPublished) return;
    const across = deviations.filter((d) => d.detector === 'cross_agent_cycle');
    if (across.length === 0) return;
    await this.states.run(
      distinctAgents(across, (d) => d),
      async () => {
        const out = new Outputs();
        for (const deviation of across) out.add(this.navigator.onDeviation(deviation));
        await this.publish(out);
      },
      ctx?.getBatch?.()[0]?.partition ?? -1,
    );
  }

  @BatchEventPattern('wayfinder.steps.v1')
  async onSteps(@Payload() steps: StepEvent[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    this.metrics.stepsProcessed(steps, 'navigator');
    await this.loadMaps(steps);
    await this.states.run(
      distinctAgents(steps, (s) => s),
      async () => {
        await this.navigator.prepare(steps);
        const out = new Outputs();
        for (const step of steps) {
          const result = this.navigator.onStep(step);
          if (result.duplicate) {
            this.metrics.duplicateStep(step.tenantId, 'navigator', 'stale_seq');
            continue;
          }
          out.add(result);
          if (result.localized) {
            const localized: LocalizedStep = { schema: LOCALIZED_SCHEMA, eventId: step.eventId, tenantId: step.tenantId, ts: step.ts, step, position: result.localized };
            this.metrics.localized(localized, this.navigator.mapOf(step.tenantId, step.taskId)?.milestones.length ?? 0);
            out.localized.push(localized);
          } else {
            out.localized.push({ schema: LOCALIZED_SCHEMA, eventId: step.eventId, tenantId: step.tenantId, ts: step.ts, step, position: NO_MAP_POSITION });
          }
        }
        this.metrics.detected(steps, out.deviations);
        this.metrics.detectionCostFlushed('navigator');
        await this.publish(out);
      },
      ctx?.getBatch?.()[0]?.partition ?? -1,
    );
  }

  /**
   * Time-based stagnation. The agents whose detectors or ladders changed are written back; the outputs
   * are published before this resolves, and kept for the next tick when the publish fails.
   */
  async tick(nowMs: number): Promise<void> {
    const result = this.navigator.tick(nowMs);
    const out = this.unsent ?? new Outputs();
    this.unsent = undefined;
    out.add(result);
    if (result.deviations.length > 0) this.states.markDirty(distinctAgents(result.deviations, (d) => d));
    if (out.deviations.length === 0 && out.corrections.length === 0 && out.withheld.length === 0 && out.escalations.length === 0) return;
    this.metrics.deviations(result.deviations);
    try {
      await this.publish(out);
    } catch (error) {
      this.unsent = out;
      throw error;
    }
    await this.states.flush();
  }

  /** The maps of the batch's tasks: from memory, else the store once (a missing map is not asked again for a while). */
  private async loadMaps(steps: readonly StepEvent[]): Promise<void> {
    const seen = new Set<string>();
    for (const step of steps) {
      if (this.navigator.mapOf(step.tenantId, step.taskId)) continue;
      const key = compositeKey(step.tenantId, step.taskId);
      if (seen.has(key)) continue;
      seen.add(key);
      const map = await this.maps.get(step.tenantId, step.taskId);
      if (map) this.navigator.setMap(step.tenantId, map);
    }
  }

  /**
   * Corrections first, on their own: nothing else of the batch (the history and memory writes that the
   * localized steps carry, in process) may delay them. Then the rest at once: each topic has a producer
   * lane of its own, so they cost one round trip together instead of one each; nobody reads them in an
   * order across topics (Kafka keeps none), and all are durable before the steps commit.
   */
  private async publish(out: Outputs): Promise<void> {
    if (out.corrections.length > 0) await this.bus.publish('wayfinder.corrections.v1', out.corrections);
    const rest: Array<Promise<void>> = [];
    if (out.withheld.length > 0) rest.push(this.bus.publish('wayfinder.would-send.v1', out.withheld));
    if (out.escalations.length > 0) rest.push(this.bus.publish('wayfinder.escalations.v1', out.escalations));
    if (out.deviations.length > 0) rest.push(this.bus.publish('wayfinder.deviations.v1', out.deviations));
    if (out.localized.length > 0) rest.push(this.bus.publish('wayfinder.localized.v1', out.localized));
    if (out.anchorChanges.length > 0) rest.push(this.bus.publish('wayfinder.anchor-changes.v1', out.anchorChanges));
    if (out.delegations.length > 0) rest.push(this.bus.publish('wayfinder.delegations.v1', out.delegations));
    await settleAll(rest);
    // Counted once published: a failed batch is decided again from the stored state and counted then.
    const byDeviation = new Map(out.deviations.map((d) => [d.eventId, d]));
    for (const c of out.corrections) this.metrics.correction(c, byDeviation.get(c.deviationIds[0] ?? '') ?? c.deviationIds[0] ?? '');
    for (const e of out.escalations) this.metrics.escalation(e);
    for (const [tenantId, [healed, failed]] of out.selfHeals) this.metrics.selfHeal(tenantId, healed, failed);
  }

  private unreadable(agent: { tenantId: string; agentId: string }, error: unknown): void {
    this.logger.warn(`unreadable navigation state of ${JSON.stringify(agent.tenantId)}/${JSON.stringify(agent.agentId)} (${(error as Error).message ?? String(error)}): it starts over`);
  }
}

