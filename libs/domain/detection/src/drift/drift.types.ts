/**
 * Local shapes of the drift detector. `DeviationDraft` and `StepDetector` mirror the detection engine's
 * (`../types.ts`); they are declared here so drift/ stays a self-contained unit until the engine unifies them.
 */
import type { CognitiveMap, Deviation, DetectorName, PolicySettings, Position, StepEvent } from '@wayfinder/contracts';

/** A deviation before the engine stamps identity and envelope fields on it. */
export type DeviationDraft = Omit<Deviation, 'schema' | 'eventId' | 'ts' | 'tenantId' | 'agentId' | 'taskId' | 'runId'>;

export interface DriftContext {
  policy: PolicySettings;
  /** The task's cognitive map, when the task has one; without it the goal comes from the run itself. */
  map?: CognitiveMap;
}

export interface DriftStepDetector {
  readonly name: DetectorName;
  onStep(step: StepEvent, position: Position | undefined, ctx: DriftContext): DeviationDraft[];
}

/** Which relevance signal fell: the current milestone, the final goal, or the agent's own plan. */
export type DriftCurve = 'milestone' | 'goal' | 'plan';
