/**
 * state-localizer (DESIGN §3, §5.2, §7): every step is localized on its task's map and published as a
 * LocalizedStep. A step that arrives before its map is held in the HeldStepStore (durably, before its
 * batch is committed) and localized when the map comes, or as `unknown` after the hold timeout: never
 * dropped, localized once. Each agent's localizer (completed milestones, anchors) is durable per-agent
 * state: restored before a batch that touches the agent, written back before the batch is committed.
 */
import { Controller, Inject, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ANCHOR_CHANGE_SCHEMA, LOCALIZED_SCHEMA, NO_MAP_POSITION, type AnchorChange, type CognitiveMap, type LocalizedStep, type Position, type StepEvent } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus, type BusBatchContext } from '@wayfinder/bus';
import { systemClock, type Clock } from '@wayfinder/clock';
import { proposeAnchorChanges, routeStep } from '@wayfinder/cognitive-map';
import type { SyncEmbedder } from '@wayfinder/embeddings';
import {
  AGENT_STATE_STORES,
  BUS,
  CLOCK,
  compositeKey,
  DurableAgentStates,
  distinctAgents,
  dropStateOfRevokedPartitions,
  EMBEDDER,
  MAP_STORE,
  MapCache,
  PeriodicTask,
  STATE_SETTINGS,
  type AgentStateStores,
  type MapStore,
  type StateSettings,
} from '@wayfinder/service-core';
import { navigationMetrics } from '@wayfinder/telemetry';
import { HELD_STEP_STORE, InMemoryHeldSteps, type HeldStepStore } from './held-steps.store';
import { LocalizerStates } from './localizer-states';
import { ReadWriteLock } from './read-write-lock';


/** How long a step waits for its map (default; WAYFINDER_LOCALIZER_HOLD_MS), how many an agent may have waiting in memory. */
export const LOCALIZER_HOLD = { timeoutMs: 5_000, maxPerAgent: 256, sweepMs: 500 };
const MAX_MAPLESS_TASKS = 100_000;

@Controller()
export class StepHandler implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('state-localizer');
  private readonly maps: MapCache;
  readonly localizers: LocalizerStates;
  readonly states: DurableAgentStates;
  private readonly held: HeldStepStore;
  private readonly holdMs: number;
  private readonly clock: Clock;
  /** (tenant, task, agent) with steps held by this process: their later steps wait behind them. */
  private readonly holding = new Set<string>();
  /** Tasks with steps held by this process. */
  private readonly heldTasks = new Set<string>();
  /**
   * Tasks looked up in the store since this process started: steps an earlier process held for them
   * are released before any later step of theirs is localized.
   */
  private readonly checked = new Set<string>();
  /** Tasks whose steps already waited out the timeout: later steps pass at once, as unknown. */
  private readonly mapless = new Set<string>();
  private readonly metrics = navigationMetrics();
  private readonly timers: PeriodicTask[];
  /**
   * Batches run shared; the sweep and the release of held steps run exclusive, so a batch never routes a
   * step to wait behind held steps that are being taken away (ReadWriteLock).
   */
  private readonly lock = new ReadWriteLock();
  /** Anchor changes proposed by the steps localized since the last publish (dynamic anchors). */
  private proposals: AnchorChange[] = [];

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly mapStore: MapStore,
    @Inject(EMBEDDER) embedder: SyncEmbedder,
    @Optional() @Inject(AGENT_STATE_STORES) stores?: AgentStateStores,
    @Optional() @Inject(HELD_STEP_STORE) held?: HeldStepStore,
    @Optional() @Inject(STATE_SETTINGS) settings?: StateSettings,
    @Optional() @Inject(CLOCK) clock?: Clock,
  ) {
    this.clock = clock ?? systemClock;
    this.maps = new MapCache(mapStore, this.clock.now);
    this.localizers = new LocalizerStates(embedder);
    this.held = held ?? new InMemoryHeldSteps(LOCALIZER_HOLD.maxPerAgent);
    this.holdMs = settings?.holdMs ?? LOCALIZER_HOLD.timeoutMs;
    this.states = new DurableAgentStates(this.localizers, stores?.('localizer'), {
      idleTtlMs: settings?.idleTtlMs,
      maxAgents: settings?.maxAgents,
      now: this.clock.now,
      onConflict: (agents) => {
        for (const a of agents) this.metrics.stateConflict(a.tenantId, 'state-localizer');
        this.logger.warn(`${agents.length} agent(s) were written by another instance since this one read them (a partition moved): reloaded, batch retried`);
      },
      onUnreadable: (agent, error) => this.logger.warn(`unreadable localizer state of ${JSON.stringify(agent.tenantId)}/${JSON.stringify(agent.agentId)} (${(error as Error).message}): it starts over`),
    });
    if (settings?.groupIdOf) {
      dropStateOfRevokedPartitions(bus, settings.groupIdOf('state-localizer'), 'wayfinder.steps.v1', this.states, undefined, (error) =>
        this.logger.error(`dropping the state of revoked partitions failed: ${(error as Error).message ?? String(error)}`),
      );
    }
    const onError = (name: string, error: unknown) => this.logger.error(`${name} failed (retried on the next tick): ${(error as Error).message ?? String(error)}`);
    this.timers = [
      new PeriodicTask({ name: 'held step sweep', everyMs: LOCALIZER_HOLD.sweepMs, run: () => this.sweep(), onError }),
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
    if (!this.maps.offer(map)) return;
    this.mapless.delete(taskKey(map.tenantId, map.taskId));
    await this.mapStore.put(map);
    await this.release(map);
  }

  @BatchEventPattern('wayfinder.steps.v1')
  async onSteps(@Payload() steps: StepEvent[], @Ctx() ctx?: BusBatchContext): Promise<void> {
    const now = this.clock.now();
    this.metrics.stepsProcessed(steps, 'state-localizer');
    const maps = await Promise.all(steps.map((s) => this.maps.get(s.tenantId, s.taskId)));
    // Steps of these tasks still held (the map came through the store): they go first, in order.
    for (const map of distinctMaps(maps)) {
      const k = taskKey(map.tenantId, map.taskId);
      if (!this.checked.has(k) || this.heldTasks.has(k)) await this.release(map);
    }
    const heldNow = new Map<string, StepEvent>();
    await this.lock.shared(() => this.states.run(
      distinctAgents(steps, (s) => s),
      async () => {
        const out: LocalizedStep[] = [];
        const hold: StepEvent[] = [];
        steps.forEach((step, i) => {
          const map = maps[i] ?? this.maps.peek(step.tenantId, step.taskId);
          const route = routeStep({
            duplicate: this.localizers.isDuplicate(step),
            hasMap: map !== undefined,
            agentWaiting: this.holding.has(holdKey(step)),
            taskMapless: this.mapless.has(taskKey(step.tenantId, step.taskId)),
          });
          if (route === 'duplicate') this.duplicate(step);
          else if (route === 'localize' && map) out.push(this.localize(step, map));
          else if (route === 'unknown') out.push(unknown(step)); // no map is coming
          else {
            hold.push(step);
            this.holding.add(holdKey(step));
            this.heldTasks.add(taskKey(step.tenantId, step.taskId));
            heldNow.set(taskKey(step.tenantId, step.taskId), step);
          }
        });
        // Held durably before the batch is committed; the bound hands back the oldest, localized now.
        if (hold.length > 0) for (const overflow of await this.held.hold(hold, now)) out.push(unknown(overflow));
        if (out.length > 0) await this.publish(out);
      },
      ctx?.getBatch?.()[0]?.partition ?? -1,
    ));
    // The map may have arrived while this batch was held: onMap released only what was held before.
    for (const step of heldNow.values()) {
      const late = this.maps.peek(step.tenantId, step.taskId);
      if (late) await this.release(late);
    }
  }

  /**
   * Steps that waited for a map longer than the hold timeout are localized as unknown. When their publish
   * fails they are held again, first in line, and their agents' later steps keep waiting behind them.
   */
  sweep(nowMs = this.clock.now()): Promise<void> {
    return this.lock.exclusive(async () => {
      const expired = onceEach(await this.held.takeExpired(nowMs - this.holdMs));
      if (expired.length === 0) return;
      for (const step of expired) this.markMapless(step);
      this.stopHolding(expired);
      this.logger.warn(`${expired.length} step(s) waited ${this.holdMs} ms for a map: localized as unknown`);
      try {
        await this.publish(expired.map((s) => unknown(s)));
      } catch (error) {
        await this.holdAgain(expired, nowMs - this.holdMs);
        throw error;
      }
    });
  }

  /** Takes the steps held for the map's task (atomically: one instance gets them) and localizes them. */
  private release(map: CognitiveMap): Promise<void> {
    return this.lock.exclusive(() => this.releaseNow(map));
  }

  private async releaseNow(map: CognitiveMap): Promise<void> {
    const k = taskKey(map.tenantId, map.taskId);
    const steps = onceEach(await this.held.take(map.tenantId, map.taskId));
    if (this.checked.size >= MAX_MAPLESS_TASKS) this.checked.clear();
    this.checked.add(k);
    this.stopHolding(steps);
    this.heldTasks.delete(k);
    if (steps.length === 0) return;
    try {
      await this.states.run(
        distinctAgents(steps, (s) => s),
        async () => {
          const out: LocalizedStep[] = [];
          for (const step of steps) {
            if (this.localizers.isDuplicate(step)) this.duplicate(step);
            else out.push(this.localize(step, map));
          }
          if (out.length > 0) await this.publish(out);
        },
      );
    } catch (error) {
      await this.holdAgain(steps, this.clock.now());
      throw error;
    }
  }

  /** The steps were taken from the held store: their agents wait for nothing any more. */
  private stopHolding(steps: readonly StepEvent[]): void {
    for (const step of steps) {
      this.holding.delete(holdKey(step));
      this.heldTasks.delete(taskKey(step.tenantId, step.taskId));
    }
  }

  /** Taken steps whose publish failed are held again, and their agents' later steps wait behind them. */
  private async holdAgain(steps: readonly StepEvent[], heldAtMs: number): Promise<void> {
    await this.held.putBack(steps, heldAtMs);
    for (const step of steps) {
      this.holding.add(holdKey(step));
      this.heldTasks.add(taskKey(step.tenantId, step.taskId));
    }
  }

  private markMapless(step: StepEvent): void {
    if (this.mapless.size >= MAX_MAPLESS_TASKS) this.mapless.clear();
    this.mapless.add(taskKey(step.tenantId, step.taskId));
  }

  /** A step at or below the last one localized for its agent and run: counted and logged, not localized twice. */
  private duplicate(step: StepEvent): void {
    this.metrics.duplicateStep(step.tenantId, 'state-localizer', 'stale_seq');
    this.logger.debug(`duplicate step ${JSON.stringify(step.eventId)} of ${JSON.stringify(step.tenantId)}/${JSON.stringify(step.agentId)} (seq ${step.seq}): already localized`);
  }

  private localize(step: StepEvent, map: CognitiveMap): LocalizedStep {
    if (step.kind === 'feedback' || step.kind === 'plan') this.proposeAnchorChanges(step, map);
    const result = localized(step, this.localizers.localize(step, map));
    this.metrics.localized(result, map.milestones.length);
    return result;
  }

  private async publish(steps: LocalizedStep[]): Promise<void> {
    await this.bus.publish('wayfinder.localized.v1', steps);
    if (this.proposals.length === 0) return;
    const proposals = this.proposals;
    this.proposals = [];
    // The task-parser applies them (autoAccept) or waits for a person's confirmation through the gateway.
    await this.bus.publish('wayfinder.anchor-changes.v1', proposals);
  }

  private proposeAnchorChanges(step: StepEvent, map: CognitiveMap): void {
    for (const p of proposeAnchorChanges(map, step)) {
      this.proposals.push({
        schema: ANCHOR_CHANGE_SCHEMA, eventId: `${p.proposalId}:proposed`, tenantId: step.tenantId, ts: step.ts, taskId: step.taskId,
        agentId: p.agentId, anchorId: p.anchorId, proposalId: p.proposalId, kind: 'proposed', to: p.to, reason: p.reason, source: p.source, atSeq: p.atSeq,
      });
    }
  }
}

function taskKey(tenantId: string, taskId: string): string {
  return compositeKey(tenantId, taskId);
}

function holdKey(step: StepEvent): string {
  return compositeKey(step.tenantId, step.taskId, step.agentId);
}

/**
 * A step redelivered while it was held (its batch was not committed) is held twice: localized once. The
 * same eventId of another tenant or agent is another step (ids are the agents' own): it is kept.
 */
function onceEach(steps: StepEvent[]): StepEvent[] {
  const seen = new Set<string>();
  return steps.filter((s) => {
    const key = compositeKey(s.tenantId, s.agentId, s.eventId);
    return !seen.has(key) && seen.add(key);
  });
}

function distinctMaps(maps: ReadonlyArray<CognitiveMap | undefined>): CognitiveMap[] {
  const seen = new Map<string, CognitiveMap>();
  for (const m of maps) if (m) seen.set(taskKey(m.tenantId, m.taskId), m);
  return [...seen.values()];
}

function localized(step: StepEvent, position: Position): LocalizedStep {
  return { schema: LOCALIZED_SCHEMA, eventId: step.eventId, tenantId: step.tenantId, ts: step.ts, step, position };
}

function unknown(step: StepEvent): LocalizedStep {
  return localized(step, NO_MAP_POSITION);
}
