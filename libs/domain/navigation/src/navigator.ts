/**
 * The whole navigation of DESIGN §5 in process, for one stream of steps: the map of the step's task
 * (when one is known) → localization → detection → correction. Pure: no I/O, no clock; `replay`,
 * `eval trail` and the embedded services feed it steps in order and publish what it returns.
 */
import { compositeKey, type AnchorChange, type CognitiveMap, type Correction, type Deviation, type Escalation, type Position, type StepEvent } from '@wayfinder/contracts';
import type { SelfHealOutcome } from '@wayfinder/correction';
import type { CorrectionStage, LocalizationStage, NavigationStages } from './navigation-ports';

export interface NavigationResult {
  /** The agent's position on its task's map; absent when no map is known for the task. */
  localized?: Position;
  deviations: Deviation[];
  corrections: Correction[];
  escalations: Escalation[];
  /** Earlier corrections whose outcome this step settled: healed (the agent progressed) or not. */
  selfHeals: SelfHealOutcome[];
  /** Anchor changes this step proposed (and, with `anchors.autoAccept`, applied). */
  anchorChanges?: AnchorChange[];
}

export class Navigator {
  private readonly maps = new Map<string, CognitiveMap>();
  /** Per agent on a task: its localizer and the map version it was built on. */
  private readonly localizers = new Map<string, { stage: LocalizationStage; version: number }>();

  constructor(private readonly stages: NavigationStages) {}

  /** Installs (or replaces, when a newer version arrives) the map of a task. */
  setMap(tenantId: string, map: CognitiveMap): void {
    const key = compositeKey(tenantId, map.taskId);
    const current = this.maps.get(key);
    if (current && current.version > map.version) return;
    this.maps.set(key, map);
    // A new version without a localizer factory that can carry positions over starts localization afresh.
    if (current && current.version !== map.version && !this.stages.localizerFor) this.dropLocalizersOf(key);
  }

  /** A decision on an anchor change (confirmed or rejected), e.g. from the gateway's anchors route. */
  onAnchorChange(change: AnchorChange): AnchorChange[] {
    const stage = this.stages.anchors;
    if (!stage) return [];
    const outcome = stage.onDecision(change, this.mapOf(change.tenantId, change.taskId));
    if (outcome.map) this.setMap(change.tenantId, outcome.map);
    return outcome.changes;
  }

  mapOf(tenantId: string, taskId: string): CognitiveMap | undefined {
    return this.maps.get(compositeKey(tenantId, taskId));
  }

  /**
   * Embeds, ahead and batched, the texts these steps will need from a semantic embedder; await it before
   * onStep (the stages stay synchronous). A no-op when every detector uses the hashing embedder.
   */
  async prepare(steps: readonly StepEvent[]): Promise<void> {
    await this.stages.detection.prepare?.(steps);
  }

  onStep(step: StepEvent): NavigationResult {
    let map = this.maps.get(compositeKey(step.tenantId, step.taskId));
    let anchorChanges: AnchorChange[] | undefined;
    if (map && this.stages.anchors && (step.kind === 'feedback' || step.kind === 'plan')) {
      const outcome = this.stages.anchors.onStep(step, map);
      if (outcome.changes.length > 0) anchorChanges = outcome.changes;
      if (outcome.map) {
        this.setMap(step.tenantId, outcome.map);
        map = outcome.map;
      }
    }
    const localized = map ? this.localizerOf(step, map).onStep(step) : undefined;
    const deviations = this.stages.detection.onStep(step, localized);
    const result: NavigationResult = { deviations, corrections: [], escalations: [], selfHeals: [] };
    if (localized) result.localized = localized;
    if (anchorChanges) result.anchorChanges = anchorChanges;
    const correction = this.stages.correction;
    if (correction) {
      const settled = correction.onStep(step, localized, map);
      if (settled) result.selfHeals.push(...settled);
      for (const deviation of deviations) {
        // A deviation may name another agent (cross_agent_cycle): it is corrected on that agent's own map.
        const own = deviation.agentId === step.agentId && deviation.taskId === step.taskId ? map : this.maps.get(compositeKey(deviation.tenantId, deviation.taskId));
        correct(correction, deviation, own, result);
      }
    }
    return result;
  }

  /** Lets time-based detectors fire between steps; `nowMs` is the stream's clock (event time in a replay). */
  tick(nowMs: number): NavigationResult {
    const deviations = this.stages.detection.tick?.(nowMs) ?? [];
    const result: NavigationResult = { deviations, corrections: [], escalations: [], selfHeals: [] };
    const correction = this.stages.correction;
    if (correction) {
      for (const deviation of deviations) correct(correction, deviation, this.maps.get(compositeKey(deviation.tenantId, deviation.taskId)), result);
    }
    return result;
  }

  private localizerOf(step: StepEvent, map: CognitiveMap): LocalizationStage {
    // Position is per agent on a task; sub-agent runs of the same agent share it.
    const key = compositeKey(step.tenantId, step.taskId, step.agentId);
    const held = this.localizers.get(key);
    if (held && held.version === map.version) return held.stage;
    const stage = this.stages.localizerFor ? this.stages.localizerFor(map, held?.stage) : unlocalized;
    this.localizers.set(key, { stage, version: map.version });
    return stage;
  }

  private dropLocalizersOf(taskKey: string): void {
    const prefix = taskKey; // length-prefixed: the task's key is a prefix of its agents' keys only
    for (const key of [...this.localizers.keys()]) if (key.startsWith(prefix)) this.localizers.delete(key);
  }
}

function correct(stage: CorrectionStage, deviation: Deviation, map: CognitiveMap | undefined, result: NavigationResult): void {
  const outcome = stage.onDeviation(deviation, map);
  for (const correction of outcome.corrections) result.corrections.push(correction);
  for (const escalation of outcome.escalations) result.escalations.push(escalation);
}

const UNKNOWN_POSITION: Position = { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' };
const unlocalized: LocalizationStage = { onStep: () => UNKNOWN_POSITION };
