/**
 * Self-heal tracking (DESIGN §5.4): after a correction the engine watches whether the agent progresses
 * within K steps (`policy.correction.selfHealWindow`). Progress means the position moved forward: a
 * milestone completed, the agent moved to another milestone, the progress fraction rose, or it signalled
 * a milestone done. The rate of healed corrections is the fleet's health signal (≥0.9 healthy).
 */
import type { CorrectionAction, Position, Severity, StepEvent } from '@wayfinder/contracts';

export interface SelfHealOutcome {
  tenantId: string;
  agentId: string;
  taskId: string;
  runId: string | null;
  /** The correction whose effect is judged. */
  correctionId: string;
  action: CorrectionAction;
  severity: Severity;
  milestoneId: string | null;
  correctedAtSeq: number;
  /** The step at which the outcome was decided. */
  resolvedAtSeq: number;
  healed: boolean;
  /** Steps (in seq) from the correction to the decision. */
  steps: number;
}

/** Where the agent stood, reduced to what "progress" compares. */
export interface ProgressMark {
  milestoneId: string | null;
  completed: number;
  progress: number;
}

export function markOf(position: Position): ProgressMark {
  return { milestoneId: position.milestoneId, completed: position.completed.length, progress: position.progress };
}

/** Did the agent move forward from `baseline`? */
export function progressedSince(baseline: ProgressMark | undefined, step: StepEvent, position: Position | undefined): boolean {
  if (step.kind === 'milestone' && step.milestone.status === 'done') return true;
  if (!position) return false;
  // No position was known when the correction was made: only a completed milestone proves progress.
  if (!baseline) return position.completed.length > 0;
  return (
    position.completed.length > baseline.completed ||
    (position.milestoneId !== null && position.milestoneId !== baseline.milestoneId) ||
    position.progress > baseline.progress
  );
}
