/** The drift detector (DESIGN §5.3): two relevance curves plus the plan-skip rule; plugged in by the engine. */
export { DriftDetector, type DriftDetectorOptions } from './drift.detector';
export type { DeviationDraft, DriftContext, DriftCurve, DriftStepDetector } from './drift.types';
export type { DriftRunState, CurveState } from './drift-run-state';
