/**
 * state-localizer (DESIGN §3, §5.2): every step is localized on its task's map and published as a
 * LocalizedStep. A step that arrives before its map is held (bounded, per agent) and localized when the
 * map comes, or localized as `unknown` after a timeout: never dropped. Localizers are per agent.
 */
import { Controller, Inject, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { ANCHOR_CHANGE_SCHEMA, LOCALIZED_SCHEMA, type AnchorChange, type CognitiveMap, type LocalizedStep, type Position, type StepEvent } from '@wayfinder/contracts';
import { BatchEventPattern, type Bus } from '@wayfinder/bus';
import { Localizer, proposeAnchorChanges } from '@wayfinder/cognitive-map';
import type { SyncEmbedder } from '@wayfinder/embeddings';
import { BUS, EMBEDDER, MAP_STORE, MapCache, type MapStore } from '@wayfinder/service-core';
import { navigationMetrics } from '@wayfinder/telemetry';
import { PendingSteps } from './pending-steps';

export const UNKNOWN_POSITION: Position = { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' };

/** How long a step waits for its map, and how many steps an agent may have waiting. */
export const LOCALIZER_HOLD = { timeoutMs: 5_000, maxPerAgent: 256, sweepMs: 500 };
const MAX_MAPLESS_TASKS = 100_000;

@Controller()
export class StepHandler implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('state-localizer');
  private readonly maps: MapCache;
  private readonly localizers = new Map<string, Localizer>();
  private readonly pending = new PendingSteps(LOCALIZER_HOLD);
  /** Tasks whose steps already waited out the timeout: later steps pass at once, as unknown. */
  private readonly mapless = new Set<string>();
  private readonly metrics = navigationMetrics();
  private sweeper?: NodeJS.Timeout;
  /** Anchor changes proposed by the steps localized since the last publish (dynamic anchors). */
  private proposals: AnchorChange[] = [];

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly mapStore: MapStore,
    @Inject(EMBEDDER) private readonly embedder: SyncEmbedder,
  ) {
    this.maps = new MapCache(mapStore);
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.sweep(), LOCALIZER_HOLD.sweepMs);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  @EventPattern('wayfinder.maps.v1')
  async onMap(@Payload() map: CognitiveMap): Promise<void> {
    if (!this.maps.offer(map)) return;
    this.mapless.delete(taskKey(map.tenantId, map.taskId));
    await this.mapStore.put(map);
    const released = this.pending.release(map.tenantId, map.taskId);
    if (released.length > 0) await this.publish(released.map((step) => this.localize(step, map)));
  }

  @BatchEventPattern('wayfinder.steps.v1')
  async onSteps(@Payload() steps: StepEvent[]): Promise<void> {
    const out: LocalizedStep[] = [];
    const now = Date.now();
    this.metrics.stepsProcessed(steps, 'state-localizer');
    for (const step of steps) {
      const map = await this.maps.get(step.tenantId, step.taskId);
      if (map) {
        // Steps of this task still waiting (the map came through the store): they go first, in order.
        for (const held of this.pending.release(step.tenantId, step.taskId)) out.push(this.localize(held, map));
        out.push(this.localize(step, map));
      } else if (this.mapless.has(taskKey(step.tenantId, step.taskId)) && !this.pending.hasAgent(step)) {
        out.push(unknown(step)); // the task already waited out the timeout once: no map is coming
      } else {
        for (const overflow of this.pending.hold(step, now)) out.push(unknown(overflow));
        // The map may have arrived while the store was read: onMap released what was held before this
        // step. Nothing awaits between hold and here, so checking now closes that window.
        const late = this.maps.peek(step.tenantId, step.taskId);
        if (late) for (const held of this.pending.release(step.tenantId, step.taskId)) out.push(this.localize(held, late));
      }
    }
    if (out.length > 0) await this.publish(out);
  }

  /** Steps that waited for a map longer than the timeout are localized as unknown. */
  async sweep(nowMs = Date.now()): Promise<void> {
    const expired = this.pending.expired(nowMs);
    if (expired.length === 0) return;
    for (const step of expired) this.markMapless(step);
    this.logger.warn(`${expired.length} step(s) waited ${LOCALIZER_HOLD.timeoutMs} ms for a map: localized as unknown`);
    await this.publish(expired.map((s) => unknown(s)));
  }

  private markMapless(step: StepEvent): void {
    if (this.mapless.size >= MAX_MAPLESS_TASKS) this.mapless.clear();
    this.mapless.add(taskKey(step.tenantId, step.taskId));
  }

  private localize(step: StepEvent, map: CognitiveMap): LocalizedStep {
    const key = `${taskKey(step.tenantId, step.taskId)}\u0000${step.agentId}`;
    let localizer = this.localizers.get(key);
    if (!localizer || localizer.map.version < map.version) {
      localizer = localizer ? Localizer.restore(map, localizer.snapshot(), this.embedder) : new Localizer(map, this.embedder);
      this.localizers.set(key, localizer);
    }
    if (step.kind === 'feedback' || step.kind === 'plan') this.proposeAnchorChanges(step, map);
    const result = localized(step, localizer.onStep(step));
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
  return `${tenantId}\u0000${taskId}`;
}

function localized(step: StepEvent, position: Position): LocalizedStep {
  return { schema: LOCALIZED_SCHEMA, eventId: step.eventId, tenantId: step.tenantId, ts: step.ts, step, position };
}

function unknown(step: StepEvent): LocalizedStep {
  return localized(step, UNKNOWN_POSITION);
}
