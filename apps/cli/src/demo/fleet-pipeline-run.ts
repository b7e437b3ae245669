/**
 * Drives a simulated fleet through the whole pipeline embedded (DESIGN §3: every service in this process
 * on the in-process bus): publishes the tenants' policies and the tasks, then runs in lockstep rounds —
 * one step per working agent, wait until every service has handled everything, hand the corrections
 * back to their agents — so a seeded run gives the same numbers on any machine. Rounds are paced on
 * the wall clock when asked (the demo), or run as fast as the pipeline goes (tests).
 */
import type { Correction, Deviation, Escalation, LocalizedStep, StepEvent, TaskSpec, TenantPolicy } from '@wayfinder/contracts';
import { InProcessBus, SettlingBus } from '@wayfinder/bus';
import { loadConfig, type WayfinderConfig } from '@wayfinder/config';
import type { CorrectionStats } from '@wayfinder/correction';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import type { ReceivedCorrection } from '@wayfinder/testing';

/** What the run drives: a SimulatedFleet, or the ArrivingFleet of `npm start` whose agents keep arriving. */
export interface DrivenFleet {
  policies(): TenantPolicy[];
  tasks(): TaskSpec[];
  /** Tasks of agents that arrived during the last nextSteps, published before their steps. */
  newTasks?(): TaskSpec[];
  nextSteps(nowMs?: number): StepEvent[];
  applyCorrection(correction: Correction): ReceivedCorrection | undefined;
  /** An operator resumed a frozen agent (through the gateway): the fleet lets it work again. */
  resume?(tenantId: string, agentId: string): boolean;
  readonly settled: boolean;
}

export interface RoundReport {
  readonly round: number;
  readonly steps: number;
  readonly deviations: number;
  readonly corrections: number;
  readonly selfHeal: CorrectionStats;
}

export interface FleetRunOptions {
  /** The services' configuration (default: the embedded defaults, the gateway on a free port). */
  readonly config?: WayfinderConfig;
  /** Upper bound of rounds; the run also ends when every agent has finished or been frozen. */
  readonly rounds: number;
  /** Wall-clock length of a round, ms (0: as fast as the pipeline goes). */
  readonly roundMs?: number;
  /** Called after every round (live view). */
  readonly onRound?: (report: RoundReport) => void;
  /** Timestamp of round 0's steps (default: the fleet's simulated clock). */
  readonly startMs?: number;
  /** How long one round may take to settle before the run fails. */
  readonly settleTimeoutMs?: number;
  /**
   * What reaches the agents: the correction as published (default), another one in its place (a sham
   * arm's generic content), or nothing (an arm without navigation). The published corrections are kept either way.
   */
  readonly deliver?: (correction: Correction) => Correction | undefined;
  /** Every round's steps with their localization, deviations and the corrections delivered after them. */
  readonly observe?: (round: ObservedRound) => void;
  /** Called once the services run (e.g. to serve the dashboard on their history). */
  readonly onStarted?: (running: RunningServices) => void | Promise<void>;
  /** Awaited after the last round, before the services stop (e.g. a dashboard still being looked at). */
  readonly beforeStop?: (running: RunningServices) => Promise<void>;
}

export interface ObservedRound {
  readonly steps: readonly StepEvent[];
  readonly localized: readonly LocalizedStep[];
  readonly deviations: readonly Deviation[];
  readonly delivered: readonly Correction[];
}

export interface FleetRun {
  readonly rounds: number;
  readonly steps: number;
  /** Sorted by tenant, agent, atSeq, eventId: the same order on every run. */
  readonly deviations: Deviation[];
  readonly corrections: Correction[];
  readonly escalations: Escalation[];
  /** What each correction did to its agent, by correction eventId. */
  readonly effects: ReadonlyMap<string, ReceivedCorrection>;
  /** The correction engine's own self-heal counters (DESIGN §5.4). */
  readonly selfHeal: CorrectionStats;
  readonly elapsedMs: number;
}

const OBSERVER_GROUP = 'wayfinder.demo-observer';

export async function runFleetThroughPipeline(fleet: DrivenFleet, options: FleetRunOptions): Promise<FleetRun> {
  const bus = new SettlingBus(new InProcessBus());
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];
  const escalations: Escalation[] = [];
  let inbox: Correction[] = [];
  // Subscribed before the services start, so nothing they publish is missed.
  bus.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: OBSERVER_GROUP });
  bus.subscribe('wayfinder.corrections.v1', async (batch) => void inbox.push(...batch.map((d) => d.payload)), { groupId: OBSERVER_GROUP });
  bus.subscribe('wayfinder.escalations.v1', async (batch) => void escalations.push(...batch.map((d) => d.payload)), { groupId: OBSERVER_GROUP });
  // Resumes come from people (the dashboard, the CLI) through the gateway, outside the lockstep rounds.
  if (fleet.resume) {
    const resume = fleet.resume.bind(fleet);
    bus.subscribe(
      'wayfinder.controls.v1',
      async (batch) => {
        for (const d of batch) if (d.payload.action === 'resume') resume(d.payload.tenantId, d.payload.agentId);
      },
      { groupId: OBSERVER_GROUP },
    );
  }
  let localized: LocalizedStep[] = [];
  if (options.observe) bus.subscribe('wayfinder.localized.v1', async (batch) => void localized.push(...batch.map((d) => d.payload)), { groupId: OBSERVER_GROUP });

  const running = await startServices(options.config ?? loadConfig({}), { bus, logger: false });
  const correctionEngine = running.correctionEngine();
  const effects = new Map<string, ReceivedCorrection>();
  const settleTimeoutMs = options.settleTimeoutMs ?? 60_000;
  const started = Date.now();
  let steps = 0;
  let round = 0;
  try {
    await options.onStarted?.(running);
    await bus.publish('wayfinder.policies.v1', fleet.policies());
    await bus.publish('wayfinder.tasks.v1', fleet.tasks());
    await bus.settled(settleTimeoutMs);
    const roundMs = options.roundMs ?? 0;
    for (; round < options.rounds && !fleet.settled; round++) {
      const batch = fleet.nextSteps(options.startMs === undefined ? undefined : options.startMs + round * Math.max(roundMs, 1));
      steps += batch.length;
      const arriving = fleet.newTasks?.() ?? [];
      if (arriving.length > 0) {
        await bus.publish('wayfinder.tasks.v1', arriving);
        await bus.settled(settleTimeoutMs);
      }
      const devsBefore = deviations.length;
      if (batch.length > 0) {
        await bus.publish('wayfinder.steps.v1', batch);
        await bus.settled(settleTimeoutMs);
      }
      const arrived = inbox.sort(byAgentThenSeq);
      inbox = [];
      const delivered: Correction[] = [];
      for (const c of arrived) {
        corrections.push(c);
        const sent = options.deliver ? options.deliver(c) : c;
        if (!sent) continue;
        delivered.push(sent);
        const effect = fleet.applyCorrection(sent);
        if (effect) effects.set(c.eventId, effect);
      }
      if (options.observe) {
        options.observe({ steps: batch, localized, deviations: deviations.slice(devsBefore), delivered });
        localized = [];
      }
      options.onRound?.({ round, steps: batch.length, deviations: deviations.length - devsBefore, corrections: arrived.length, selfHeal: correctionEngine.stats() });
      if (roundMs > 0) {
        const due = started + (round + 1) * roundMs;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }
    await options.beforeStop?.(running);
  } finally {
    await running.stop();
  }
  return {
    rounds: round,
    steps,
    deviations: deviations.sort(byAgentThenSeq),
    corrections: corrections.sort(byAgentThenSeq),
    escalations: escalations.sort(byAgentThenSeq),
    effects,
    selfHeal: correctionEngine.stats(),
    elapsedMs: Date.now() - started,
  };
}

function byAgentThenSeq(a: { tenantId: string; agentId: string; atSeq?: number; eventId: string }, b: typeof a): number {
  return a.tenantId.localeCompare(b.tenantId) || a.agentId.localeCompare(b.agentId) || (a.atSeq ?? 0) - (b.atSeq ?? 0) || a.eventId.localeCompare(b.eventId);
}
