/**
 * The correction ladder (DESIGN §5.4): four rungs, from a hint to a freeze, and where a deviation enters it.
 * Warnings enter at the bottom; critical deviations enter at severe or critical by detector; hard stops
 * (dangerous tools, exhausted budgets) freeze at once and no tolerance delays them.
 */
import type { CorrectionAction, Deviation, DetectorName, Severity } from '@wayfinder/contracts';

export const RUNGS = ['mild', 'moderate', 'severe', 'critical'] as const satisfies readonly Severity[];
/** Index into RUNGS: 0 hint, 1 rollback, 2 replan, 3 freeze. */
export type Rung = 0 | 1 | 2 | 3;
export const MILD: Rung = 0;
export const MODERATE: Rung = 1;
export const SEVERE: Rung = 2;
export const CRITICAL: Rung = 3;

const ACTION_OF_RUNG: Record<Rung, CorrectionAction> = { 0: 'hint', 1: 'rollback', 2: 'replan', 3: 'freeze' };

export function severityOf(rung: Rung): Severity {
  return RUNGS[rung];
}

export function actionOf(rung: Rung): CorrectionAction {
  return ACTION_OF_RUNG[rung];
}

export function clampRung(value: number): Rung {
  return Math.max(MILD, Math.min(CRITICAL, Math.trunc(value))) as Rung;
}

/**
 * Entry rung of a critical deviation. A loop that has gone critical is past hinting and rolling back to
 * the same checkpoint would replay it, so it is replanned; the global breaker means nothing else stopped
 * the agent, so a human takes over.
 */
const CRITICAL_ENTRY: Record<DetectorName, Rung> = {
  generic_repeat: SEVERE,
  known_poll_no_progress: SEVERE,
  ping_pong: SEVERE,
  unknown_tool_repeat: SEVERE,
  error_repeat: SEVERE,
  near_duplicate_calls: SEVERE,
  semantic_repetition: SEVERE,
  monologue: SEVERE,
  compaction_loop_persisted: SEVERE,
  cycle_repeat: SEVERE,
  content_repetition: SEVERE,
  compaction_loop: SEVERE,
  stagnation: SEVERE,
  drift: SEVERE,
  global_circuit_breaker: CRITICAL,
  constraint_violation: CRITICAL,
  budget: CRITICAL,
  // A milestone whose verification keeps failing, or a cycle across agents: a human decides.
  verification_failed_repeat: CRITICAL,
  cross_agent_cycle: CRITICAL,
  align_check_failed: SEVERE,
  plan_off_goal: SEVERE,
  // Unbacked claims again and again: the agent's picture of its progress is wrong, so it replans.
  unverified_claim: SEVERE,
};

/** Warnings that enter above the bottom rung: the agent's own self-check saying no is a rollback trigger. */
const WARNING_ENTRY: Partial<Record<DetectorName, Rung>> = {
  align_check_failed: MODERATE,
};

/** The rung a deviation asks for on its own, before the ladder's history is considered. */
export function entryRung(deviation: Pick<Deviation, 'detector' | 'level'>): Rung {
  return deviation.level === 'critical' ? CRITICAL_ENTRY[deviation.detector] : (WARNING_ENTRY[deviation.detector] ?? MILD);
}

/**
 * Dangerous tools, broken hard constraints, exhausted budgets and verification that keeps failing stop the
 * agent at once: no tolerance, cool-down or budget delays them. A constraint warning (the embedder
 * fallback's similarity, not a rule) is corrected like any warning.
 */
export function isHardStop(deviation: Pick<Deviation, 'detector' | 'level'>): boolean {
  if (deviation.level !== 'critical') return false;
  return deviation.detector === 'constraint_violation' || deviation.detector === 'budget' || deviation.detector === 'verification_failed_repeat';
}

/**
 * What a relapse is a relapse of: loops on one tool are the same problem whichever loop detector saw them;
 * tool-less problems (monologue, stagnation, drift) are keyed by detector.
 */
export function patternOf(deviation: Pick<Deviation, 'detector' | 'evidence'>): string {
  const tool = deviation.evidence['tool'];
  return typeof tool === 'string' && tool.length > 0 ? `tool:${tool}` : `detector:${deviation.detector}`;
}
