/**
 * The one per-agent navigation pipeline of DESIGN §5 (issue #28), for one stream of steps: the map of the
 * step's task (when one is known) → localization → detection → correction. Every way of running
 * navigation feeds it: `wayfinder replay` and `eval`, the SDK's in-process guard, the embedded runtime and
 * the Kafka runtime (the navigator service, libs/services/navigator). Pure: no I/O, no clock of its own.
 *
 * Rules written here, once:
 * - a step is navigated once: a step at or below the last seq navigated for its agent, task and run (a
 *   redelivery) gives nothing;
 * - a step with no map for its task is navigated at once without a position (no wait for a map: an agent
 *   that never posts its task is corrected on time); a map that arrives later localizes its later steps;
 * - order: the correction stage sees a step (self-heal, checkpoint) before the deviations it causes;
 * - an operator's suppression drops a deviation before it is corrected; a shadow tenant's corrections are
 *   decided and returned as `withheld`, its escalations not at all;
 * - each agent's state (localizers on its latest tasks, detectors, ladder) is one document
 *   (navigation-state.ts), exported and restored whole.
 */
import { NO_MAP_POSITION, compositeKey, utf8Bytes, type AnchorChange, type CognitiveMap, type Correction, type DelegationSignal, type Deviation, type Escalation, type Position, type StepEvent } from '@wayfinder/contracts';
import type { SelfHealOutcome } from '@wayfinder/correction';
import type { CorrectionStage, LocalizationStage, NavigationStages } from './navigation-ports';
import { decodeNavigationState, encodeNavigationState, LOCALIZATION_VERSION, type LocalizationDocument } from './navigation-state';

export interface NavigationResult {
  /** The agent's position on its task's map; absent when no map is known for the task. */
  localized?: Position;
  deviations: Deviation[];
  /** Corrections to send, in the order decided. */
  corrections: Correction[];
  /** Corrections decided for a shadow tenant: recorded as would-send, never sent. */
  withheld: Correction[];
  escalations: Escalation[];
  /** Earlier corrections whose outcome this step settled: healed (the agent progressed) or not. */
  selfHeals: SelfHealOutcome[];
  /** Anchor changes this step proposed (and, with `anchors.autoAccept`, applied). */
  anchorChanges?: AnchorChange[];
  /** Distributed: the step's delegation signals, for the tenant's cross_agent_cycle graph (NavigationStages.delegations). */
  delegations?: DelegationSignal[];
  /** The step was navigated before (a redelivery): nothing was run again. */
  duplicate?: boolean;
}

/** Tasks whose localizers an agent keeps (the newest): an agent works on one task at a time. */
const MAX_TASKS_PER_AGENT = 4;

/** An agent's localizer on one task, or its stored snapshot waiting for the task's map. */
interface HeldLocalizer {
  stage?: LocalizationStage;
  snapshot?: unknown;
  /** The map version the stage was built on (0 for a snapshot not yet restored). */
  version: number;
  /** The run and the last seq navigated in it: a redelivered step is recognised. */
  runId: string | null;
  lastSeq: number;
}

export class Navigator {
  private readonly maps = new Map<string, CognitiveMap>();
  /** Per agent (tenant, agent): its localizers by task, newest last. */
  private readonly localizers = new Map<string, Map<string, HeldLocalizer>>();

  constructor(private readonly stages: NavigationStages) {}

  /** Installs (or replaces, when a newer version arrives) the map of a task. */
  setMap(tenantId: string, map: CognitiveMap): void {
    const key = compositeKey(tenantId, map.taskId);
    const current = this.maps.get(key);
    if (current && current.version > map.version) return;
    this.maps.set(key, map);
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
    const held = map ? this.localizerOf(step, map) : undefined;
    if (held && held.runId === (step.runId ?? null) && step.seq <= held.lastSeq && held.stage) {
      return { deviations: [], corrections: [], withheld: [], escalations: [], selfHeals: [], duplicate: true };
    }
    let anchorChanges: AnchorChange[] | undefined;
    if (map && this.stages.anchors && (step.kind === 'feedback' || step.kind === 'plan')) {
      const outcome = this.stages.anchors.onStep(step, map);
      if (outcome.changes.length > 0) anchorChanges = outcome.changes;
      if (outcome.map) {
        this.setMap(step.tenantId, outcome.map);
        map = outcome.map;
      }
    }
    let localized: Position | undefined;
    if (held && map) {
      const stage = this.stageOf(held, map);
      localized = stage.onStep(step);
      const runId = step.runId ?? null;
      held.lastSeq = held.runId === runId ? Math.max(held.lastSeq, step.seq) : step.seq;
      held.runId = runId;
    }
    const deviations = this.kept(this.stages.detection.onStep(step, localized));
    const result: NavigationResult = { deviations, corrections: [], withheld: [], escalations: [], selfHeals: [] };
    if (localized) result.localized = localized;
    if (anchorChanges) result.anchorChanges = anchorChanges;
    const delegations = this.stages.delegations?.signalsOf(step, localized);
    if (delegations && delegations.length > 0) result.delegations = delegations;
    const correction = this.stages.correction;
    if (correction) {
      const settled = correction.onStep(step, localized, map);
      if (settled) result.selfHeals.push(...settled);
      for (const deviation of deviations) {
        // A deviation may name another agent (cross_agent_cycle): it is corrected on that agent's own map.
        const own = deviation.agentId === step.agentId && deviation.taskId === step.taskId ? map : this.maps.get(compositeKey(deviation.tenantId, deviation.taskId));
        this.correct(correction, deviation, own, result);
      }
    }
    return result;
  }

  /** Lets time-based detectors fire between steps; `nowMs` is the stream's clock (event time in a replay). */
  tick(nowMs: number): NavigationResult {
    const deviations = this.kept(this.stages.detection.tick?.(nowMs) ?? []);
    const result: NavigationResult = { deviations, corrections: [], withheld: [], escalations: [], selfHeals: [] };
    const correction = this.stages.correction;
    if (correction) {
      for (const deviation of deviations) this.correct(correction, deviation, this.maps.get(compositeKey(deviation.tenantId, deviation.taskId)), result);
    }
    return result;
  }

  /**
   * A deviation decided outside this agent's steps (distributed: the tenant's cross_agent_cycle graph) goes
   * up the agent's ladder as one of its own would: suppressions and shadow mode apply.
   */
  onDeviation(deviation: Deviation): NavigationResult {
    const deviations = this.kept([deviation]);
    const result: NavigationResult = { deviations: [], corrections: [], withheld: [], escalations: [], selfHeals: [] };
    const correction = this.stages.correction;
    if (correction) for (const d of deviations) this.correct(correction, d, this.maps.get(compositeKey(d.tenantId, d.taskId)), result);
    return result;
  }

  /** A person resumed a frozen agent: its next steps are navigated again. */
  resume(tenantId: string, agentId: string): boolean {
    return this.stages.correction?.resume?.(tenantId, agentId) ?? false;
  }

  /** The agent's one state document, or undefined when no stage keeps anything for it. */
  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const localization = this.exportLocalization(tenantId, agentId);
    const detection = this.stages.detection.state?.exportAgentState(tenantId, agentId);
    const correction = this.stages.correction?.state?.exportAgentState(tenantId, agentId);
    if (!localization && !detection && !correction) return undefined;
    return encodeNavigationState({ localization, detection, correction });
  }

  /** Replaces the agent's state with a stored document; a document that cannot be read throws before anything changes. */
  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    const parts = decodeNavigationState(state);
    const localization = parts.localization ? parseLocalization(parts.localization) : undefined;
    this.forgetAgent(tenantId, agentId);
    if (localization) this.localizers.set(compositeKey(tenantId, agentId), localization);
    if (parts.detection) this.stages.detection.state?.importAgentState(tenantId, agentId, parts.detection);
    if (parts.correction) this.stages.correction?.state?.importAgentState(tenantId, agentId, parts.correction);
  }

  forgetAgent(tenantId: string, agentId: string): void {
    this.localizers.delete(compositeKey(tenantId, agentId));
    this.stages.detection.state?.forgetAgent(tenantId, agentId);
    this.stages.correction?.state?.forgetAgent(tenantId, agentId);
  }

  private kept(deviations: Deviation[]): Deviation[] {
    const suppressed = this.stages.suppressed;
    return suppressed && deviations.length > 0 ? deviations.filter((d) => !suppressed(d)) : deviations;
  }

  private correct(stage: CorrectionStage, deviation: Deviation, map: CognitiveMap | undefined, result: NavigationResult): void {
    const outcome = stage.onDeviation(deviation, map);
    const shadow = this.stages.shadow?.(deviation.tenantId) === true;
    for (const correction of outcome.corrections) (shadow ? result.withheld : result.corrections).push(correction);
    if (!shadow) for (const escalation of outcome.escalations) result.escalations.push(escalation);
  }

  /** The agent's entry for the step's task (created, and made the newest), evicting its oldest tasks. */
  private localizerOf(step: StepEvent, map: CognitiveMap): HeldLocalizer {
    // Position is per agent on a task; sub-agent runs of the same agent share it.
    const key = compositeKey(step.tenantId, step.agentId);
    let tasks = this.localizers.get(key);
    if (!tasks) this.localizers.set(key, (tasks = new Map()));
    let held = tasks.get(step.taskId);
    if (held) tasks.delete(step.taskId);
    else held = { version: 0, runId: step.runId ?? null, lastSeq: -Infinity };
    tasks.set(step.taskId, held);
    while (tasks.size > MAX_TASKS_PER_AGENT) tasks.delete(tasks.keys().next().value as string);
    if (!held.stage) held.stage = this.stageOf(held, map);
    return held;
  }

  /** The held localizer on this map: kept while built on this version or a newer one, else carried over. */
  private stageOf(held: HeldLocalizer, map: CognitiveMap): LocalizationStage {
    if (held.stage && held.version >= map.version) return held.stage;
    const build = this.stages.localizerFor;
    const previous = held.stage ?? (held.snapshot !== undefined ? { snapshot: held.snapshot } : undefined);
    held.stage = build ? build(map, previous) : unlocalized;
    held.snapshot = undefined;
    held.version = map.version;
    return held.stage;
  }

  private exportLocalization(tenantId: string, agentId: string): Uint8Array | undefined {
    const tasks = this.localizers.get(compositeKey(tenantId, agentId));
    if (!tasks || tasks.size === 0) return undefined;
    const doc: LocalizationDocument = {
      v: LOCALIZATION_VERSION,
      tasks: [...tasks].map(([taskId, h]) => [taskId, { snapshot: h.stage ? h.stage.snapshot?.() : h.snapshot, version: h.stage ? h.version : 0, runId: h.runId, lastSeq: h.lastSeq }]),
    };
    return utf8Bytes(JSON.stringify(doc));
  }
}

function parseLocalization(bytes: Uint8Array): Map<string, HeldLocalizer> {
  const doc = JSON.parse(new TextDecoder().decode(bytes)) as LocalizationDocument;
  if (doc?.v !== LOCALIZATION_VERSION || !Array.isArray(doc.tasks)) throw new Error(`navigation state: unsupported localization version ${String(doc?.v)}`);
  // Snapshots wait, as they are, for their task's map (a restore needs it): version 0 rebuilds on the first map.
  return new Map(doc.tasks.map(([taskId, t]) => [taskId, { snapshot: t.snapshot, version: 0, runId: t.runId, lastSeq: t.lastSeq ?? -Infinity }]));
}

const unlocalized: LocalizationStage = { onStep: () => NO_MAP_POSITION };
