/** Shapes of the drift detector: it is a StepDetector of the engine and reads the map from its context. */
import type { DetectionContext, DeviationDraft, StepDetector } from '../types';

export type { DeviationDraft };

/** What drift reads of the detection context: the policy and, when the task has one, its map. */
export type DriftContext = Pick<DetectionContext, 'policy' | 'map'>;

export type DriftStepDetector = StepDetector;

/** Which relevance signal fell: the current milestone, the final goal, or the agent's own plan. */
export type DriftCurve = 'milestone' | 'goal' | 'plan';
