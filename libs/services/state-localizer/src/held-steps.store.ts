/**
 * Where the state localizer holds steps that arrived before their task's map (DESIGN §3, §7): held
 * durably before the batch that brought them is committed, so a restart or a partition move loses none;
 * taken atomically when the map arrives or the hold times out, so each is localized once even when
 * several instances see the map. Redis in distributed mode (`RedisHeldSteps` of @wayfinder/redis),
 * in memory in embedded mode.
 */
import { PendingSteps } from '@wayfinder/cognitive-map';
import type { StepEvent } from '@wayfinder/contracts';

export interface HeldStepStore {
  /** Holds the steps, in order; resolves to the oldest steps pushed out by the bound (localize them now). */
  hold(steps: readonly StepEvent[], nowMs: number): Promise<StepEvent[]>;
  /** Takes every step held for the task (its map arrived), in per-agent order. */
  take(tenantId: string, taskId: string): Promise<StepEvent[]>;
  /** Takes the steps of every task whose oldest held step was held at or before `heldBeforeMs`. */
  takeExpired(heldBeforeMs: number): Promise<StepEvent[]>;
  /** Holds taken steps again (their publish failed): they are taken with the next map or timeout. */
  putBack(steps: readonly StepEvent[], nowMs: number): Promise<void>;
}

export const HELD_STEP_STORE = Symbol('wayfinder.held-step-store');

/** In process (embedded mode): the bounded PendingSteps. */
export class InMemoryHeldSteps implements HeldStepStore {
  private readonly pending: PendingSteps;

  constructor(maxPerAgent: number) {
    // Expiry is decided by takeExpired's cutoff, not by the PendingSteps' own timeout.
    this.pending = new PendingSteps({ maxPerAgent, timeoutMs: 0 });
  }

  get size(): number {
    return this.pending.size;
  }

  async hold(steps: readonly StepEvent[], nowMs: number): Promise<StepEvent[]> {
    const out: StepEvent[] = [];
    for (const step of steps) out.push(...this.pending.hold(step, nowMs));
    return out;
  }

  async take(tenantId: string, taskId: string): Promise<StepEvent[]> {
    return this.pending.release(tenantId, taskId);
  }

  async takeExpired(heldBeforeMs: number): Promise<StepEvent[]> {
    return this.pending.expired(heldBeforeMs);
  }

  async putBack(steps: readonly StepEvent[], nowMs: number): Promise<void> {
    await this.hold(steps, nowMs);
  }
}
