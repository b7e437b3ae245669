/** Cognitive maps: task parsing, validation, validators, localization, goal board and STATE rendering. */
export * from './result';
export { compileSafePattern, MAX_PATTERN_INPUT, type CompiledPattern, type SafePattern } from './safe-pattern';
export { parseGoal, mergeTail, linearMilestones, defaultValidator, type ParsedGoal, type SegmentStrategy } from './goal-parser';
export { parseTask, mapEventId } from './task-parser';
export { validateMap, topologicalOrder, type MilestoneNode } from './map-validation';
export { extractAnchors } from './anchors';
export { extractConstraintTexts, isConstraintClause, numberConstraints } from './constraints';
export { appendFeedbackConstraint, type MapVersionMeta } from './feedback';
export { evaluateValidator, readPath, type ValidatorContext } from './validators';
export {
  anchorStatus,
  anchorCounts,
  emptyProgress,
  updateAnchorProgress,
  type AnchorProgress,
  type AnchorStatus,
  type AnchorTally,
} from './anchor-progress';
export { Localizer, type LocalizerOptions, type LocalizerSnapshot } from './localizer';
export { InMemoryMapStore, isNewerMap, mapReplaces, type MapStore } from './map-store.port';
export { PendingSteps, routeStep, type PendingStepsOptions, type StepRoute, type StepRouteFacts } from './pending-steps';
export { renderGoalBoard, renderState, renderAnchor, type StateInput } from './rendering';
export { stepText, argsText, type StepTextPart } from './step-text';
export { shortHash, slugify, stableId } from './ids';
export { parseNumber } from './numerals';
export {
  compileConstraintRules,
  compileConstraints,
  constraintCoverage,
  toolCategory,
  toolTokens,
  type CompiledConstraint,
  type ConstraintCoverage,
  type ConstraintRule,
  type FieldFormat,
  type OutputFormat,
  type ToolCategory,
} from './constraint-rules';
export { actionPaths, checkAction, checkOutput, countsToward, normalizePath, type RuleViolation, type RunFacts } from './constraint-check';
export { anchorChangesInText, applyAnchorChange, proposeAnchorChanges, type AcceptedAnchorChange, type AnchorChangeProposal } from './anchor-change';
