/**
 * The fleet `npm start` (`wayfinder start --fleet`) keeps running: simulated agents arrive one at a time
 * (every `everyRounds` rounds while fewer than `maxAlive` work), about half of them falling into a
 * loop, a drift or a stagnation, and leave when they finish or are frozen (a frozen one comes back when
 * an operator resumes it) — so the dashboard always has
 * agents working, looping and recovering until the process is stopped. Each arrival is a one-agent
 * SimulatedFleet whose `firstAgent` is the arrival's number, so ids, tasks and seeds never repeat.
 */
import type { Correction, StepEvent, TaskSpec, TenantPolicy } from '@wayfinder/contracts';
import { DEFAULT_TENANTS, SimulatedFleet, type ReceivedCorrection } from '@wayfinder/testing';
import type { DrivenFleet } from './fleet-pipeline-run';

/** Frozen agents kept for a resume; older ones are let go (their history stays). */
const FROZEN_KEPT = 100;

export interface ArrivingFleetOptions {
  readonly seed: number;
  /** Agents that arrive at once, at round 0. */
  readonly initial: number;
  /** A new agent every this many rounds. */
  readonly everyRounds: number;
  /** No arrival while this many agents are still working. */
  readonly maxAlive: number;
  /** Share of arrivals that fall into a failure (default 0.5). */
  readonly failureRate?: number;
}

export class ArrivingFleet implements DrivenFleet {
  private readonly alive: SimulatedFleet[] = [];
  private arrived = 0;
  private round = 0;
  private pending: TaskSpec[] = [];
  private readonly frozen: SimulatedFleet[] = [];
  private stopped = false;

  constructor(private readonly options: ArrivingFleetOptions) {
    for (let i = 0; i < options.initial; i++) this.arrive();
  }

  /** Every arrival so far (its agent id is `agent-NNNN`, NNNN its arrival number). */
  get arrivals(): number {
    return this.arrived;
  }

  policies(): TenantPolicy[] {
    return new SimulatedFleet({ seed: this.options.seed, agents: 1, tenants: DEFAULT_TENANTS }).policies();
  }

  /** The tasks of the agents that arrived since the last call: published before their first step. */
  tasks(): TaskSpec[] {
    return this.newTasks();
  }

  newTasks(): TaskSpec[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  nextSteps(nowMs?: number): StepEvent[] {
    if (this.round > 0 && this.round % this.options.everyRounds === 0 && this.working() < this.options.maxAlive) this.arrive();
    this.round++;
    const steps = this.alive.flatMap((f) => f.nextSteps(nowMs));
    // Agents that finished leave: their history stays in the store, their simulation goes. Frozen ones
    // wait (the newest FROZEN_KEPT of them) for a person to resume them from the dashboard.
    for (let i = this.alive.length - 1; i >= 0; i--) {
      const f = this.alive[i];
      if (!f.settled) continue;
      this.alive.splice(i, 1);
      if (f.countByState().frozen > 0) this.frozen.push(f);
    }
    if (this.frozen.length > FROZEN_KEPT) this.frozen.splice(0, this.frozen.length - FROZEN_KEPT);
    return steps;
  }

  applyCorrection(correction: Correction): ReceivedCorrection | undefined {
    for (const f of this.alive) {
      const effect = f.applyCorrection(correction);
      if (effect) return effect;
    }
    return undefined;
  }

  /** An operator resumed a frozen agent: it works again (and counts as working). */
  resume(tenantId: string, agentId: string): boolean {
    const i = this.frozen.findIndex((f) => f.resume(tenantId, agentId));
    if (i < 0) return false;
    this.alive.push(...this.frozen.splice(i, 1));
    return true;
  }

  /** Settles only when stopped: agents keep arriving until then. */
  get settled(): boolean {
    return this.stopped;
  }

  stop(): void {
    this.stopped = true;
  }

  private working(): number {
    return this.alive.filter((f) => !f.settled).length;
  }

  private arrive(): void {
    const n = this.arrived++;
    // Every other arrival, give or take: a seeded coin per arrival, not the fleet's own draw over one agent.
    const coin = (Math.imul(this.options.seed ^ (n + 1), 2654435761) >>> 0) / 2 ** 32;
    const fleet = new SimulatedFleet({ seed: this.options.seed + n * 7919, agents: 1, firstAgent: n, failures: coin < (this.options.failureRate ?? 0.5) ? 1 : 0, recovery: 'content' });
    this.alive.push(fleet);
    this.pending.push(...fleet.tasks());
  }
}
