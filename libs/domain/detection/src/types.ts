/** Shapes shared by the engine and the detectors. */
import type { CognitiveMap, Deviation, DetectorName, PolicySettings, Position, StepEvent } from '@wayfinder/contracts';
import type { EmbeddingRequest } from '@wayfinder/embeddings';
import type { AgentSlots } from './state/agent-runs';

/** A deviation before the engine stamps identity and envelope fields on it. */
export type DeviationDraft = Omit<Deviation, 'schema' | 'eventId' | 'ts' | 'tenantId' | 'agentId' | 'taskId' | 'runId'>;

export interface DetectionContext {
  policy: PolicySettings;
  /** Expected duration of one step of the task (time-based stagnation). */
  expectedStepMs?: number;
  /** The task's step budget (overrides policy.budget.maxSteps). */
  maxSteps?: number;
  /** The task's cognitive map, when one is known (drift measures relevance to its goal and milestones). */
  map?: CognitiveMap;
}

/** A detector plugged into the engine from outside (drift lives in src/drift and plugs in here). */
export interface StepDetector {
  readonly name: DetectorName;
  onStep(step: StepEvent, position: Position | undefined, ctx: DetectionContext): DeviationDraft[];
  /** The texts onStep will read from a semantic embedder, for the stream handler to prefetch (DESIGN §5.6). */
  textsFor?(step: StepEvent, position: Position | undefined, ctx: DetectionContext): EmbeddingRequest[];
  /** Optional state hooks so the engine can persist and restore the detector's per-agent state. */
  exportState?(tenantId: string, agentId: string): unknown;
  importState?(tenantId: string, agentId: string, state: unknown): void;
  forget?(tenantId: string, agentId: string): void;
  /**
   * Called once by the engine it plugs into, before any step: keep the per-agent state in these slots of
   * the engine's own agent state (one container per agent, issue #14) instead of a map of its own.
   */
  useAgentSlots?(slots: AgentSlots): void;
}
