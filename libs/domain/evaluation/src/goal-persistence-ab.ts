/**
 * The goal-persistence A/B's method (DESIGN §9): the arms, the sham navigator's correction (the same moment
 * and rung, none of the content), what each arm delivers, the per-arm summary and the paired bootstrap
 * differences against `none`. Pure; the runner (a seeded fleet through an embedded pipeline per arm) is
 * `wayfinder eval ab`'s (apps/cli/src/demo/ab-run.ts).
 */
import type { Correction, CorrectionAction } from '@wayfinder/contracts';
import { pairedBootstrap, type Interval } from './bootstrap';
import type { GoalPersistenceReport, PersistencePoint } from './goal-persistence';

export const ARMS = ['none', 'navigation', 'sham'] as const;
export type Arm = (typeof ARMS)[number];

export interface AgentOutcome {
  tenantId: string;
  agentId: string;
  injected: boolean;
  completed: boolean;
  frozen: boolean;
  anchorRecall: number;
  consistency: number;
  steps: number;
  tokens: number;
  selfHeal: GoalPersistenceReport['selfHealByRung'];
  curve: readonly PersistencePoint[];
}

export interface ArmSummary {
  agents: number;
  rounds: number;
  tasksCompleted: number;
  anchorRecall: number;
  consistency: number;
  stepsPerCompletedTask: number | null;
  tokens: number;
  selfHealRate: number | null;
  selfHealByRung: Partial<Record<CorrectionAction, { healed: number; resolved: number; rate: number | null }>>;
  escalations: number;
  correctionsDelivered: number;
}

export interface AbResult {
  seed: number;
  agents: number;
  rounds: number;
  arms: Partial<Record<Arm, ArmSummary>>;
  differences: Partial<Record<Exclude<Arm, 'none'>, Record<DifferenceMetric, Interval>>>;
  outcomes: Partial<Record<Arm, AgentOutcome[]>>;
}

const DIFFERENCE_METRICS = ['tasksCompleted', 'anchorRecall', 'consistency', 'stepsPerCompletedTask', 'tokens', 'selfHealRate'] as const;
export type DifferenceMetric = (typeof DIFFERENCE_METRICS)[number];

export const SHAM_HINT = 'You seem to be stuck. Step back and try a different approach.';
export const SHAM_REPLAN = 'Make a new plan and continue.';

/** The sham navigator's correction: the same moment and rung, none of the content. */
export function shamOf(c: Correction): Correction {
  switch (c.action) {
    case 'hint':
      return { ...c, reason: SHAM_HINT, hint: { text: SHAM_HINT } };
    case 'rollback':
      return { ...c, reason: SHAM_HINT, rollback: { checkpointId: null, milestoneId: null, discardAfterSeq: c.atSeq } };
    case 'replan':
      return { ...c, reason: SHAM_REPLAN, replan: { fromMilestoneId: null, remaining: [], reason: SHAM_REPLAN } };
    case 'freeze':
      return c;
  }
}

const DELIVER: Record<Arm, (c: Correction) => Correction | undefined> = {
  none: () => undefined,
  navigation: (c) => c,
  sham: shamOf,
};

/** What an arm's agents receive of a published correction: nothing (`none`), it (`navigation`), its sham. */
export function deliveredBy(arm: Arm): (c: Correction) => Correction | undefined {
  return DELIVER[arm];
}

/** Per metric, the paired bootstrap 95% interval of an arm's difference against `none`, over agents (seeded). */
export function armDifferences(base: readonly AgentOutcome[], rows: readonly AgentOutcome[], seed: number, resamples = 2000): Record<DifferenceMetric, Interval> {
  return Object.fromEntries(
    DIFFERENCE_METRICS.map((metric) => [metric, round(pairedBootstrap(rows.length, (idx) => statistic(metric, base, idx), (idx) => statistic(metric, rows, idx), { seed, resamples }))]),
  ) as Record<DifferenceMetric, Interval>;
}

function statistic(metric: DifferenceMetric, rows: readonly AgentOutcome[], idx: readonly number[]): number {
  let completed = 0;
  let steps = 0;
  let sum = 0;
  let healed = 0;
  let resolved = 0;
  for (const i of idx) {
    const r = rows[i];
    if (r.completed) completed++;
    steps += r.steps;
    if (metric === 'anchorRecall') sum += r.anchorRecall;
    else if (metric === 'consistency') sum += r.consistency;
    else if (metric === 'tokens') sum += r.tokens;
    else if (metric === 'selfHealRate') {
      for (const h of Object.values(r.selfHeal)) {
        healed += h?.healed ?? 0;
        resolved += h?.resolved ?? 0;
      }
    }
  }
  switch (metric) {
    case 'tasksCompleted':
      return completed;
    case 'stepsPerCompletedTask':
      return completed === 0 ? Number.NaN : steps / completed;
    case 'tokens':
      return sum;
    case 'selfHealRate':
      return resolved === 0 ? 0 : healed / resolved;
    default:
      return sum / idx.length;
  }
}

export function summarizeArm(rows: readonly AgentOutcome[], rounds: number, delivered: number): ArmSummary {
  const all = rows.map((_, i) => i);
  const byRung: ArmSummary['selfHealByRung'] = {};
  for (const r of rows) {
    for (const [action, h] of Object.entries(r.selfHeal) as Array<[CorrectionAction, { healed: number; resolved: number }]>) {
      const into = (byRung[action] ??= { healed: 0, resolved: 0, rate: null });
      into.healed += h.healed;
      into.resolved += h.resolved;
    }
  }
  let healed = 0;
  let resolved = 0;
  for (const h of Object.values(byRung)) {
    h.rate = h.resolved === 0 ? null : r3(h.healed / h.resolved);
    healed += h.healed;
    resolved += h.resolved;
  }
  const completed = statistic('tasksCompleted', rows, all);
  const spc = statistic('stepsPerCompletedTask', rows, all);
  return {
    agents: rows.length,
    rounds,
    tasksCompleted: completed,
    anchorRecall: r3(statistic('anchorRecall', rows, all)),
    consistency: r3(statistic('consistency', rows, all)),
    stepsPerCompletedTask: Number.isFinite(spc) ? r3(spc) : null,
    tokens: statistic('tokens', rows, all),
    selfHealRate: resolved === 0 ? null : r3(healed / resolved),
    selfHealByRung: byRung,
    escalations: rows.filter((r) => r.frozen).length,
    correctionsDelivered: delivered,
  };
}

function round(i: Interval): Interval {
  return { estimate: r3(i.estimate), ci95: [r3(i.ci95[0]), r3(i.ci95[1])] };
}

function r3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
