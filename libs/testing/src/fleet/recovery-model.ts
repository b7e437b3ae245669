/**
 * How a simulated agent answers a correction by what it says (DESIGN §9), all parameters in one place.
 * The chance that a correction breaks the agent's failure depends on its content:
 * - a hint that names the tool or an argument that loops (or, for failures without a repeated call —
 *   monologue, stagnation, drift — the milestone the agent should be on) vs. one that says nothing specific;
 * - a rollback whose checkpoint lies before the loop started vs. one that restores nothing before it;
 * - a replan whose remaining path starts at the agent's open milestone and whose reason names what failed,
 *   one of the two, or neither;
 * and on whether the rung is at least what this agent needs (its responsiveness). The draw is seeded
 * (one stream per agent, the k-th correction gets the k-th draw in every arm of an A/B run).
 *
 * Where the numbers come from. The field reports quoted in issue #16 give outcomes of whole systems, not
 * per-correction chances, so the chances below are derived from them and stated as assumptions:
 * - "anchor recall 65% → 92% with a goal-persistence controller": the controller brings back
 *   (92 − 65) / (100 − 65) ≈ 77% of what would have been lost → a specific correction at the rung the
 *   agent needs recovers it about 0.75–0.85 of the time (hint 0.75, rollback 0.8, replan 0.85: stronger
 *   rungs carry more context);
 * - "self-heal above 0.9 means the corrections work, below 0.7 means the cognitive map is wrong": with
 *   two or three rungs tried, specific corrections at these chances heal above 0.9 of failures, and
 *   corrections whose content does not fit the failure (a wrong map gives wrong checkpoints and paths)
 *   heal below 0.7;
 * - DESIGN §1.5 "no self-healing: when it goes wrong nothing brings it back short of a human restart":
 *   an uncorrected agent leaves its failure on its own rarely (0.002 per looping turn, an assumption: about one
 *   loop in six breaks by itself within 100 turns);
 * - "a correction that says nothing specific helps little" (issue #16; hint-text.ts: "'You seem stuck' is
 *   not a hint"): generic content recovers 0.1–0.15 (an assumption: a generic nudge does break a few loops);
 * - a rung below what the agent needs keeps 0.3 of its chance (field reports: hints break simple loops,
 *   some need more; an assumption for the factor).
 * These values were set before any A/B run and are not tuned to its outcome.
 */
import type { Correction } from '@wayfinder/contracts';
import { CORRECTION_RANK, type Responsiveness } from './fleet.types';

export const RECOVERY_MODEL = {
  hint: { specific: 0.75, generic: 0.1 },
  rollback: { beforeLoop: 0.8, notBeforeLoop: 0.15 },
  replan: { fitting: 0.85, partlyFitting: 0.45, generic: 0.15 },
  /** Share of the chance a rung below the agent's need keeps. */
  belowNeed: 0.3,
  /** Chance per looping turn that an agent leaves its failure with no correction at all. */
  selfRecoveryPerTurn: 0.002,
} as const;

/** What the agent knows about its own failure, to judge what a correction says. */
export interface FailureView {
  readonly respondsTo: Responsiveness;
  /** Seq of the first step of the failure. */
  readonly startSeq: number;
  /** Tools and distinctive argument values of the looping calls. */
  readonly tools: readonly string[];
  readonly values: readonly string[];
  /** The milestone the agent is stuck on, and those it has not done yet. */
  readonly milestone: { readonly id: string; readonly description: string };
  readonly open: readonly string[];
}

export interface RecoveryJudgement {
  /** Did the content fit the failure (it names what loops, restores before it, or replans around it)? */
  readonly specific: boolean;
  readonly chance: number;
}

export function judgeCorrection(c: Exclude<Correction, { action: 'freeze' }>, failure: FailureView): RecoveryJudgement {
  let specific: boolean;
  let chance: number;
  switch (c.action) {
    case 'hint':
      specific = namesFailure(c.hint.text, failure);
      chance = specific ? RECOVERY_MODEL.hint.specific : RECOVERY_MODEL.hint.generic;
      break;
    case 'rollback':
      specific = c.rollback.checkpointId !== null && c.rollback.discardAfterSeq < failure.startSeq;
      chance = specific ? RECOVERY_MODEL.rollback.beforeLoop : RECOVERY_MODEL.rollback.notBeforeLoop;
      break;
    case 'replan': {
      const path = c.replan.remaining.length > 0 && c.replan.remaining[0] === failure.milestone.id && failure.open.every((id) => c.replan.remaining.includes(id));
      const named = namesFailure(c.replan.reason, failure);
      specific = path && named;
      chance = specific ? RECOVERY_MODEL.replan.fitting : path || named ? RECOVERY_MODEL.replan.partlyFitting : RECOVERY_MODEL.replan.generic;
      break;
    }
  }
  if (CORRECTION_RANK[c.action] < CORRECTION_RANK[failure.respondsTo]) chance *= RECOVERY_MODEL.belowNeed;
  return { specific, chance };
}

function namesFailure(text: string, failure: FailureView): boolean {
  const lower = text.toLowerCase();
  if (failure.tools.some((t) => lower.includes(t.toLowerCase()))) return true;
  if (failure.values.some((v) => v.length >= 4 && lower.includes(v.toLowerCase()))) return true;
  // Failures without one repeated call are named by where the agent should be.
  return failure.tools.length === 0 || failure.values.length === 0
    ? lower.includes(failure.milestone.id.toLowerCase()) || lower.includes(failure.milestone.description.toLowerCase())
    : false;
}
