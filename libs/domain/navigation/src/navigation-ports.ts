/**
 * What the Navigator needs of each stage, as narrow structural interfaces: the concrete engines of
 * @wayfinder/cognitive-map, @wayfinder/detection and @wayfinder/correction satisfy them (wired in
 * create-navigator.ts), and tests can drive the Navigator with small fakes.
 */
import type { AnchorChange, CognitiveMap, Correction, Deviation, Escalation, Position, StepEvent } from '@wayfinder/contracts';
import type { SelfHealOutcome } from '@wayfinder/correction';

/** Localization of one agent on one map; keeps its own state (the position only moves forward). */
export interface LocalizationStage {
  onStep(step: StepEvent): Position;
}

/** Detection for every agent; the engine keys its per-agent state itself. */
export interface DetectionStage {
  onStep(step: StepEvent, position?: Position): Deviation[];
  /** Time-based detectors (stagnation on wall-clock); `nowMs` is the current time of the stream. */
  tick?(nowMs: number): Deviation[];
  /** Embeds ahead (async, batched) what onStep will read from a semantic embedder (DESIGN §5.6). */
  prepare?(steps: readonly StepEvent[]): Promise<void>;
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
}

export interface AnchorStageLike {
  onStep(step: StepEvent, map: CognitiveMap): { map?: CognitiveMap; changes: AnchorChange[] };
  onDecision(change: AnchorChange, map: CognitiveMap | undefined): { map?: CognitiveMap; changes: AnchorChange[] };
}

export interface NavigationStages {
  readonly detection: DetectionStage;
  /**
   * Builds the localizer of one agent on one map; without it steps are not localized. With `previous`
   * (the agent's localizer on the map's older version) the position carries over to the new version.
   */
  readonly localizerFor?: (map: CognitiveMap, previous?: LocalizationStage) => LocalizationStage;
  /** Dynamic anchors: proposals from feedback/plan steps, and decisions on them. */
  readonly anchors?: AnchorStageLike;
  /** Without it no corrections are computed (a replay that only wants deviations skips the ladder). */
  readonly correction?: CorrectionStage;
}
