/** Public API of @wayfinder/detection: the engine, policies and fingerprints (DESIGN §5.3, §6). */
export { DetectionEngine, type DetectionEngineOptions } from './detection.engine';
export { boundedStep, DEFAULT_STEP_BOUNDS, STEP_BOUND_ENV, type StepBounds, type StepWork } from './step-bounds';
export type { DetectionContext, DeviationDraft, StepDetector } from './types';
export { PROFILES, DEFAULT_PROFILE } from './policy/profiles';
export { resolvePolicy, applyOverlay } from './policy/resolve';
export { validatePolicy, type PolicyValidation } from './policy/validate';
export { compilePolicy, type CompiledPolicy } from './policy/compiled-policy';
export { PolicyBook } from './policy/policy-book';
export { argsHash, resultHash, errorHash, isErrorOutcome, isUnknownToolOutcome, type OutcomeLike } from './fingerprint/fingerprint';
export { normalizeText, normalizeValue, canonicalJson, VOLATILE_KEYS, type NormalizeOptions } from './fingerprint/normalize';
export { hash32, hashHex } from './fingerprint/hash';
export { textOf } from './fingerprint/text-of';
export { compileGlobs, type GlobMatcher } from './glob';
export { runConformanceCase, type ConformanceCase } from './conformance/conformance-case';
// The drift detector is written in src/drift by its owner; re-exported so workers can plug it in.
export { DriftDetector, type DriftDetectorOptions, type DriftContext, type DriftCurve, type DriftStepDetector } from './drift';
export { SemanticRepetitionDetector } from './semantic-repetition/semantic-repetition.detector';
export { embedderChoice, embedderChoices, driftThresholds, repetitionThreshold, withEmbedderThresholds, type EmbeddingDetector } from './policy/embedder-thresholds';
export { plugInDetectors } from './plug-in-detectors';
// Issue 18's goal checks (constraint rules, verification, ALIGN-CHECK, plans), plugged in like drift.
export {
  goalCheckDetectors,
  AlignCheckDetector,
  ConstraintRulesDetector,
  PlanOffGoalDetector,
  UnverifiedClaimDetector,
  VerificationRepeatDetector,
  alignCheckBlock,
  readAlignCheck,
  contentTerms,
  textSimilarity,
  type AlignAnswer,
  type AlignQuestion,
  type SubgoalMatch,
  type TextSimilarity,
} from './goal-checks';
// cross_agent_cycle: per-tenant, fed by delegation signals (in process, or from wayfinder.delegations.v1).
export { CrossAgentCycleDetector, DelegationGraph, DelegationSignaller, delegationOf, delegationSignalsOf, normalizeSubtask } from './delegation';
