/**
 * Builds a Navigator on the real engines: cognitive-map localization, the detection engine and the
 * correction ladder, sharing one embedder. This is what replay, eval and the embedded services call.
 */
import type { CognitiveMap, Deviation, PolicySettings, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { Localizer, parseTask, type LocalizerSnapshot } from '@wayfinder/cognitive-map';
import { CorrectionEngine } from '@wayfinder/correction';
import { CrossAgentCycleDetector, DelegationSignaller, DetectionEngine, plugInDetectors, type DetectionContext, type DetectionEngineOptions } from '@wayfinder/detection';
import { HashingEmbedder, hashingVectors, type PrefetchingVectorSource, type SyncEmbedder } from '@wayfinder/embeddings';
import { AnchorStage } from './anchor-stage';
import { LadderStage, type PolicySubject } from './ladder-stage';
import { Navigator } from './navigator';

export interface NavigatorOptions {
  /** The resolved policy of every agent, or a function resolving it (tenant → task → agent overlays). */
  policy: PolicySettings | ((subject: PolicySubject) => PolicySettings);
  /** The hashing embedder (localization, and every detector whose policy chose hashing); default built in. */
  embedder?: SyncEmbedder;
  /**
   * Vectors of the semantic embedders the policy chooses per detector (an EmbeddingCache); call
   * `navigator.prepare(steps)` before `onStep`. Default: hashing serves every choice.
   */
  vectors?: PrefetchingVectorSource;
  /** Tasks whose maps are known up front; steps of other tasks are navigated without a map. */
  tasks?: readonly TaskSpec[];
  /** Run the correction ladder (default true). */
  corrections?: boolean;
  /**
   * Timestamps of corrections and escalations. Default: the time of the latest step seen, so a replay
   * of the same events yields byte-identical output; live services pass the wall clock.
   */
  now?: () => number;
  /**
   * The detection context of a step (policy, the map's budgets): the services pass their PolicyBook's
   * `contextFor`. Default: the policy above with the map the Navigator holds.
   */
  contextFor?: (step: StepEvent, map: CognitiveMap | undefined) => DetectionContext;
  /** Operators' suppressions: a deviation answered true is neither returned nor corrected. */
  suppressed?: (deviation: Deviation) => boolean;
  /** Shadow-mode tenants: their corrections are withheld (would-send), their escalations not raised. */
  shadow?: (tenantId: string) => boolean;
  /** The correction ladder's engine (a service that reads its stats or freeze state passes its own). */
  correctionEngine?: CorrectionEngine;
  /** Told of a step the detectors did not apply again (an eventId seen, a seq at or below the run's last). */
  onDuplicate?: (step: StepEvent, reason: 'seen_event' | 'stale_seq') => void;
  /** What detection reads of one step (the operator's WAYFINDER_DETECTION_MAX_*; the engine's defaults when absent). */
  stepBounds?: DetectionEngineOptions['stepBounds'];
  /** Told of each step's detection cost (the per-tenant detection metrics). */
  onStepCost?: DetectionEngineOptions['onStepCost'];
  /**
   * cross_agent_cycle: `in-process` (default: every agent of a tenant passes through this Navigator) or
   * `published` (a tenant's agents on several instances: steps return their delegation signals for the
   * tenant's one graph, and its deviations come back through `onDeviation`).
   */
  crossAgent?: 'in-process' | 'published';
}

export function createNavigator(options: NavigatorOptions): Navigator {
  const embedder = options.embedder ?? new HashingEmbedder();
  const vectors = options.vectors ?? { ...hashingVectors(embedder), embedsAhead: false, prefetch: async () => undefined };
  const policy = options.policy;
  const policyOf = typeof policy === 'function' ? policy : () => policy;
  let streamTime = 0;
  const now = options.now ?? (() => streamTime);
  // The detection engine asks for a step's budgets, which come from the map the Navigator holds
  // (`navigator` is only read once steps flow, after it is built below).
  const detection = new DetectionEngine({
    embedder,
    vectors,
    policyFor: (step: StepEvent) => {
      const map = navigator.mapOf(step.tenantId, step.taskId);
      if (options.contextFor) return options.contextFor(step, map);
      // Drift reads the map's goal and milestones from the context.
      const ctx: DetectionContext = { policy: policyOf(step), expectedStepMs: map?.expectedStepMs, maxSteps: map?.maxSteps, map };
      return ctx;
    },
    extraDetectors: plugInDetectors(vectors, embedder),
    onDuplicate: options.onDuplicate,
    stepBounds: options.stepBounds,
    onStepCost: options.onStepCost,
  });
  // Delegation cycles span agents: in process every agent of a tenant passes here, so one graph sees them
  // all; distributed, the signals go out to the tenant's one graph (`crossAgent: 'published'`).
  const published = options.crossAgent === 'published';
  const cycles = published ? undefined : new CrossAgentCycleDetector();
  const signaller = published ? new DelegationSignaller() : undefined;
  const correction = options.corrections === false ? undefined : new LadderStage(options.correctionEngine ?? new CorrectionEngine({ now }), policyOf);
  const navigator: Navigator = new Navigator({
    detection: {
      onStep(step, position) {
        const ms = Date.parse(step.ts);
        if (ms > streamTime) streamTime = ms;
        const deviations = detection.onStep(step, position);
        const across = cycles?.onStep(step, position, policyOf(step));
        return across && across.length > 0 ? [...deviations, ...across] : deviations;
      },
      tick: (nowMs) => detection.tick(nowMs),
      async prepare(steps) {
        if (!vectors.embedsAhead) return;
        const requests = steps.flatMap((step) => detection.textsFor(step));
        if (requests.length > 0) await vectors.prefetch(requests);
      },
      state: detection,
    },
    // A new map version (an anchor change, appended constraints) keeps the agent's position.
    localizerFor: (map, previous) => {
      if (previous instanceof Localizer) return Localizer.restore(map, previous.snapshot(), embedder);
      if (previous && 'snapshot' in previous && previous.snapshot) return Localizer.restore(map, previous.snapshot as LocalizerSnapshot, embedder);
      return new Localizer(map, embedder);
    },
    correction,
    delegations: signaller && { signalsOf: (step, position) => (policyOf(step).crossAgent.enabled ? signaller.signalsOf(step, position) : []) },
    anchors: new AnchorStage(policyOf),
    suppressed: options.suppressed,
    shadow: options.shadow,
  });
  for (const spec of options.tasks ?? []) {
    const parsed = parseTask(spec);
    if (!parsed.ok) throw new Error(`task ${spec.taskId}: ${parsed.error.message}`);
    navigator.setMap(spec.tenantId, parsed.value);
  }
  return navigator;
}
