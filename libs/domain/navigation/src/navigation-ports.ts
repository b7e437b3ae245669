/**
 * What the Navigator needs of each stage, as narrow structural interfaces: the concrete engines of
 * @wayfinder/cognitive-map, @wayfinder/detection and @wayfinder/correction satisfy them (wired in
 * create-navigator.ts), and tests can drive the Navigator with small fakes.
 */
import type { AnchorChange, CognitiveMap, Correction, DelegationSignal, Deviation, Escalation, Position, StepEvent } from '@wayfinder/contracts';
import type { SelfHealOutcome } from '@wayfinder/correction';

/** Localization of one agent on one map; keeps its own state (the position only moves forward). */
export interface LocalizationStage {
  onStep(step: StepEvent): Position;
  /** Its state as plain data (JSON), for the agent's state document; restored by `localizerFor`. */
  snapshot?(): unknown;
}

/**
 * A stage's per-agent state, for the agent's one state document (navigation-state.ts): the detection and
 * correction engines implement it. Structural: the same shape the services' durable state asks of a holder.
 */
export interface AgentStateParts {
  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined;
  /** Replaces the agent's state; throws when the bytes cannot be read. */
  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void;
  forgetAgent(tenantId: string, agentId: string): void;
}

/** Detection for every agent; the engine keys its per-agent state itself. */
export interface DetectionStage {
  onStep(step: StepEvent, position?: Position): Deviation[];
  /** Time-based detectors (stagnation on wall-clock); `nowMs` is the current time of the stream. */
  tick?(nowMs: number): Deviation[];
  /** Embeds ahead (async, batched) what onStep will read from a semantic embedder (DESIGN §5.6). */
  prepare?(steps: readonly StepEvent[]): Promise<void>;
  /** Its per-agent state, kept in the agent's state document. */
  readonly state?: AgentStateParts;
}

export interface CorrectionOutcome {
  corrections: Correction[];
  escalations: Escalation[];
  /** The decision a redelivered deviation got the first time (same event ids), already counted. */
  replayed?: boolean;
}

/** The correction ladder for every agent. */
export interface CorrectionStage {
  /** Returns the self-heal outcomes this step settled (a corrected agent progressed, or ran out of time). */
  onStep(step: StepEvent, position: Position | undefined, map: CognitiveMap | undefined): readonly SelfHealOutcome[] | void;
  onDeviation(deviation: Deviation, map: CognitiveMap | undefined): CorrectionOutcome;
  /** A person resumed the frozen agent: its next steps are navigated again. */
  resume?(tenantId: string, agentId: string): boolean;
  /** Its per-agent state, kept in the agent's state document. */
  readonly state?: AgentStateParts;
}

export interface AnchorStageLike {
  onStep(step: StepEvent, map: CognitiveMap): { map?: CognitiveMap; changes: AnchorChange[] };
  onDecision(change: AnchorChange, map: CognitiveMap | undefined): { map?: CognitiveMap; changes: AnchorChange[] };
}

export interface NavigationStages {
  readonly detection: DetectionStage;
  /**
   * Builds the localizer of one agent on one map; without it steps are not localized. With `previous`
   * (the agent's localizer on the map's older version, or its snapshot from a stored state document) the
   * position carries over to this version.
   */
  readonly localizerFor?: (map: CognitiveMap, previous?: LocalizationStage | { snapshot: unknown }) => LocalizationStage;
  /**
   * Operators' suppressions (false positives they marked): a deviation it answers true for is neither
   * returned nor corrected.
   */
  readonly suppressed?: (deviation: Deviation) => boolean;
  /** Tenants in shadow mode (policy `shadow: true`): corrections decided and withheld, escalations not raised. */
  readonly shadow?: (tenantId: string) => boolean;
  /** Dynamic anchors: proposals from feedback/plan steps, and decisions on them. */
  readonly anchors?: AnchorStageLike;
  /** Without it no corrections are computed (a replay that only wants deviations skips the ladder). */
  readonly correction?: CorrectionStage;
  /**
   * Distributed (a tenant's agents on several instances): the step's delegation signals, returned for the
   * tenant's one graph (`wayfinder.delegations.v1`), whose cross_agent_cycle deviations come back through
   * `Navigator.onDeviation`. Absent: the detection stage sees cycles in process.
   */
  readonly delegations?: { signalsOf(step: StepEvent, position: Position | undefined): DelegationSignal[] };
}
