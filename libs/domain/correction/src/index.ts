/** @wayfinder/correction: the correction ladder, self-heal tracking, hint and replan texts (DESIGN §5.4). */
export { CorrectionEngine } from './correction-engine';
export type { CorrectionContext, CorrectionDecision, CorrectionStats } from './correction-engine';
export type { SelfHealOutcome, ProgressMark } from './self-heal';
export { progressedSince } from './self-heal';
export { buildHintText, MAX_HINT_CHARS } from './hint-text';
export type { HintInput } from './hint-text';
export { buildReplan, topologicalOrder } from './replan';
export type { ReplanBody, ReplanInput } from './replan';
export { RUNGS, entryRung, isHardStop, patternOf, severityOf, actionOf } from './ladder';
export type { Rung } from './ladder';
export { deterministicId } from './event-id';
export { rollbackContext, rollbackNote } from './rollback-context';
export { resumeInstructions } from './resume-instructions';
export type { RollbackCorrection, RolledBackContext, RollbackContextOptions } from './rollback-context';
