/**
 * The whole navigation of DESIGN §5 in process, for one stream of steps: the map of the step's task
 * (when one is known) → localization → detection → correction. Pure: no I/O, no clock; `replay`,
 * `eval trail` and the embedded services feed it steps in order and publish what it returns.
 */
import { compositeKey, type CognitiveMap, type Correction, type Deviation, type Escalation, type Position, type StepEvent } from '@wayfinder/contracts';
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
}

export class Navigator {
  private readonly maps = new Map<string, CognitiveMap>();
  private readonly localizers = new Map<string, LocalizationStage>();

  constructor(private readonly stages: NavigationStages) {}

  /** Installs (or replaces, when a newer version arrives) the map of a task. */
  setMap(tenantId: string, map: CognitiveMap): void {
    const key = compositeKey(tenantId, map.taskId);
    const current = this.maps.get(key);
    if (current && current.version > map.version) return;
    this.maps.set(key, map);
    if (current && current.version !== map.version) this.dropLocalizersOf(key);
  }

  mapOf(tenantId: string, taskId: string): CognitiveMap | undefined {
    return this.maps.get(compositeKey(tenantId, taskId));
  }

  onStep(step: StepEvent): NavigationResult {
    const map = this.maps.get(compositeKey(step.tenantId, step.taskId));
    const localized = map ? this.localizerOf(step, map).onStep(step) : undefined;
    const deviations = this.stages.detection.onStep(step, localized);
    const result: NavigationResult = { deviations, corrections: [], escalations: [], selfHeals: [] };
    if (localized) result.localized = localized;
    const correction = this.stages.correction;
    if (correction) {
      const settled = correction.onStep(step, localized, map);
      if (settled) result.selfHeals.push(...settled);
      for (const deviation of deviations) correct(correction, deviation, map, result);
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
    let localizer = this.localizers.get(key);
    if (!localizer) {
      localizer = this.stages.localizerFor ? this.stages.localizerFor(map) : unlocalized;
      this.localizers.set(key, localizer);
    }
    return localizer;
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
