/**
 * The goal-persistence A/B (DESIGN §9): the same seeded fleet of content-responsive agents, each arm in its
 * own embedded pipeline. `none`: the pipeline runs but no correction reaches the agents; `navigation`: the
 * corrections as published; `sham`: a correction at each of the same points of its own pipeline's rhythm,
 * with generic content (a hint naming nothing, a rollback restoring nothing, a replan with no path).
 * This file runs the arms; the method (arms, sham, per-arm summaries, paired bootstrap differences) is
 * the domain's: libs/domain/evaluation/src/goal-persistence-ab.ts.
 */
import { resolvePolicy } from '@wayfinder/detection';
import { armDifferences, deliveredBy, type Arm, summarizeArm, type AbResult, type AgentOutcome } from '@wayfinder/evaluation';
import { deriveSeed, SimulatedFleet } from '@wayfinder/testing';
import { FleetPersistence } from './fleet-persistence';
import { runFleetThroughPipeline } from './fleet-pipeline-run';

export interface AbOptions {
  agents: number;
  seed: number;
  arms: readonly Arm[];
  /** Step budget of the run: an agent still working after this many rounds has not completed its task. */
  rounds: number;
  failureRate?: number;
  resamples?: number;
}

export async function runAb(options: AbOptions): Promise<AbResult> {
  const window = resolvePolicy().correction.selfHealWindow;
  const outcomes: AbResult['outcomes'] = {};
  const arms: AbResult['arms'] = {};
  for (const arm of options.arms) {
    const fleet = new SimulatedFleet({ seed: options.seed, agents: options.agents, failureRate: options.failureRate ?? 0.3, recovery: 'content' });
    const persistence = new FleetPersistence(fleet.tasks(), window);
    let delivered = 0;
    const run = await runFleetThroughPipeline(fleet, {
      rounds: options.rounds,
      deliver: deliveredBy(arm),
      observe: (round) => {
        delivered += round.delivered.length;
        persistence.observe(round);
      },
    });
    const rows = fleet.agentRecords().map((a): AgentOutcome => {
      const p = persistence.of(a.tenantId, a.agentId);
      return {
        tenantId: a.tenantId,
        agentId: a.agentId,
        injected: a.failure !== undefined,
        completed: a.state === 'done',
        frozen: a.state === 'frozen',
        anchorRecall: p?.report.anchorRecall ?? 0,
        consistency: p?.report.trajectoryConsistency ?? 0,
        steps: a.lastSeq + 1,
        tokens: p?.tokens ?? 0,
        selfHeal: p?.report.selfHealByRung ?? {},
        curve: p?.report.curve ?? [],
      };
    });
    outcomes[arm] = rows;
    arms[arm] = summarizeArm(rows, run.rounds, delivered);
  }
  const differences: AbResult['differences'] = {};
  const base = outcomes.none;
  if (base) {
    for (const arm of options.arms) {
      if (arm === 'none') continue;
      differences[arm] = armDifferences(base, outcomes[arm]!, deriveSeed(options.seed, `bootstrap-${arm}`), options.resamples);
    }
  }
  return { seed: options.seed, agents: options.agents, rounds: options.rounds, arms, differences, outcomes };
}
