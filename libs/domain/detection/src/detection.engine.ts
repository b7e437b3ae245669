/**
 * The detection engine (DESIGN §5.3): per-agent state, idempotent application of steps, and every
 * built-in detector except drift, which plugs in through `extraDetectors`. Pure and deterministic:
 * the same steps in the same order give the same deviations with the same eventIds.
 */
import { DEVIATION_SCHEMA, type Deviation, type Position, type StepEvent } from '@wayfinder/contracts';
import { agentKey, type EmbedderName, type EmbeddingRequest, HashingEmbedder, hashingVectors, type SyncEmbedder, type VectorSource } from '@wayfinder/embeddings';
import { dangerousToolViolation } from './detectors/constraint.detector';
import { detectBudget } from './detectors/budget.detector';
import { armCompactionGuard, observeUnderGuard, skipUnderGuard } from './detectors/compaction.detector';
import { detectMessageRepetition } from './detectors/message-repetition.detector';
import { clearNearDuplicateEvidence, nearDuplicateEarlyOnAction, identicalCallsInOneBatch, nearDuplicateOnAction, nearDuplicateOnObservation } from './detectors/near-duplicate.detector';
import { detectStepStagnation, detectTimeStagnation, markProgress, positionMovedForward } from './detectors/stagnation.detector';
import { detectToolLoop } from './detectors/tool-loop.detector';
import { detectCycle } from './detectors/cycle.detector';
import { detectContentRepetition } from './detectors/content-repetition.detector';
import { countActionForCompaction, detectCompactionLoop } from './detectors/compaction-loop.detector';
import { detectCrossRunFailure } from './detectors/cross-run-failure.detector';
import { detectSameCallFailure } from './detectors/same-call-failure.detector';
import { maskVolatileArgs } from './fingerprint/volatile-args';
import { clearFruitless, detectFruitless, Outcome as FruitOutcome } from './detectors/fruitless.detector';
import { countSilentMessage, detectNoActionMonologue, endSilentMessages } from './detectors/monologue-no-action.detector';
import { errorHash, isErrorOutcome, isUnknownToolOutcome, type OutcomeLike, resultHash } from './fingerprint/fingerprint';
import { canonicalJson } from './fingerprint/normalize';
import { hash32, hashHex } from './fingerprint/hash';
import { paginationOf, targetSignature, textOf } from './fingerprint/text-of';
import { compilePolicy, type CompiledPolicy } from './policy/compiled-policy';
import { embedderChoice, withEmbedderThresholds } from './policy/embedder-thresholds';
import { SemanticRepetitionDetector } from './semantic-repetition/semantic-repetition.detector';
import type { AgentSlots } from './state/agent-runs';
import { AgentState } from './state/agent-state';
import { decodeAgentState, encodeAgentState } from './state/codec';
import { RecordFlag } from './state/run-history';
import { RunState } from './state/run-state';
import { SKETCH_WORDS, sketchInto } from './state/sketch';
import { EvidenceMemory } from './evidence/evidence-memory';
import type { DetectionContext, DeviationDraft, StepDetector } from './types';
import { boundedStep, DEFAULT_STEP_BOUNDS, type StepBounds } from './step-bounds';

export interface DetectionEngineOptions {
  /** The hashing embedder (default: the built-in one, for which the profiles' thresholds are calibrated). */
  embedder?: SyncEmbedder;
  /**
   * Vectors for the detectors whose policy chose a semantic embedder (`policy.embedders`), prefetched by
   * the caller for the texts `textsFor` lists (DESIGN §5.6). Default: hashing serves every choice.
   */
  vectors?: VectorSource;
  policyFor: (step: StepEvent) => DetectionContext;
  extraDetectors?: StepDetector[];
  /** Told of every step not applied again: an eventId already applied, or a seq at or below the run's last. */
  onDuplicate?: (step: StepEvent, reason: 'seen_event' | 'stale_seq') => void;
  /** What detection reads of one step (DEFAULT_STEP_BOUNDS; the operator's WAYFINDER_DETECTION_MAX_*). */
  stepBounds?: StepBounds;
  /**
   * Told of each step's detection cost, for the per-tenant metrics: `work` is deterministic (argument
   * values and characters read, after the bounds), `seconds` the wall time it took. Measured only, never
   * used for a decision.
   */
  onStepCost?: (tenantId: string, work: number, seconds: number) => void;
}

/** Default of `loop.runRestartGapMs`. */
export const DEFAULT_RUN_RESTART_GAP_MS = 60_000;

const NO_RUN = '\u0000';
/** Characters of args and results embedded for near-duplicate checks: what a call is shows early. */
const MAX_EMBED_CHARS = 4096;
const NO_TARGETS: [number, number] = [0, 0];

interface TimeSettings {
  expectedStepMs: number;
  warningFactor: number;
  criticalFactor: number;
}

export class DetectionEngine {
  private readonly vectors: VectorSource;
  private readonly policyFor: (step: StepEvent) => DetectionContext;
  private readonly extraDetectors: StepDetector[];
  private readonly onDuplicate?: DetectionEngineOptions['onDuplicate'];
  private readonly stepBounds: StepBounds;
  private readonly onStepCost?: DetectionEngineOptions['onStepCost'];
  /** The work of the step being read (boundedStep spends it), reused by every step. */
  private readonly work = { work: 0 };
  /** tenantId → agentId → state: no composite key string per agent to build on every step or keep in memory. */
  private readonly agents = new Map<string, Map<string, AgentState>>();
  private agentTotal = 0;
  /** Runs watched by the wall-clock stagnation timer, with their settings. */
  private readonly timed = new WeakMap<RunState, TimeSettings>();
  private readonly scratch = new Int32Array(SKETCH_WORDS);
  /** The agent of the previous step: consecutive steps of one agent are the common case on a partition. */
  private last: AgentState | undefined;
  private lastPolicy: CompiledPolicy | undefined;
  private readonly drafts: DeviationDraft[] = [];
  private readonly vectorScratch: Float32Array;

  constructor(options: DetectionEngineOptions) {
    const embedder = options.embedder ?? new HashingEmbedder();
    this.vectors = options.vectors ?? hashingVectors(embedder);
    this.vectorScratch = new Float32Array(embedder.dimension);
    this.policyFor = options.policyFor;
    // semantic_repetition is built in but reads its own embedder's vectors, so it plugs in like drift.
    this.extraDetectors = [new SemanticRepetitionDetector(this.vectors), ...(options.extraDetectors ?? [])];
    this.onDuplicate = options.onDuplicate;
    this.stepBounds = options.stepBounds ?? DEFAULT_STEP_BOUNDS;
    this.onStepCost = options.onStepCost;
    // The plug-ins that can keep their per-agent state in this engine's agents do (one container per agent).
    const slots = this.agentSlots();
    for (const detector of this.extraDetectors) detector.useAgentSlots?.(slots);
  }

  get agentCount(): number {
    return this.agentTotal;
  }

  /**
   * The texts that onStep will embed with a semantic embedder, for the caller to prefetch (async,
   * batched) before it runs the steps: the engine's own (monologue, near-duplicate calls) and each plug-in's.
   */
  textsFor(input: StepEvent, position?: Position): EmbeddingRequest[] {
    const out: EmbeddingRequest[] = [];
    if (!input || typeof input !== 'object' || typeof input.tenantId !== 'string' || typeof input.agentId !== 'string') return out;
    // The texts of the step as onStep will read it.
    const step = boundedStep(input, this.stepBounds);
    let ctx: DetectionContext;
    try {
      ctx = this.policyFor(step);
    } catch {
      return out;
    }
    const settings = ctx.policy;
    const agent = agentKey(step.tenantId, step.agentId);
    const monologue = embedderChoice(settings, 'monologue');
    const near = embedderChoice(settings, 'nearDuplicate');
    if (step.kind === 'message' && monologue !== 'hashing' && settings.monologue.enabled && step.message?.role === 'assistant') {
      out.push({ choice: monologue, agent, text: monologueText(typeof step.message.text === 'string' ? step.message.text : '', settings.monologue) });
    } else if (step.kind === 'action' && near !== 'hashing' && settings.nearDuplicate.enabled) {
      out.push({ choice: near, agent, text: textOf(step.action?.args, MAX_EMBED_CHARS) });
    } else if (step.kind === 'observation' && near !== 'hashing' && settings.nearDuplicate.enabled) {
      out.push({ choice: near, agent, text: observationText(step.observation ?? {}) });
    }
    for (const detector of this.extraDetectors) {
      try {
        if (detector.textsFor) out.push(...detector.textsFor(step, position, ctx));
      } catch {
        // A failing plug-in lists nothing; its onStep is guarded the same way.
      }
    }
    return out;
  }

  /**
   * Processes one step (any kind) for its agent; returns the deviations it caused, in order. A step the
   * engine cannot process throws (with the reason): the caller fails its batch, which is retried and
   * finally dead-lettered with that reason — never swallowed.
   */
  onStep(step: StepEvent, position?: Position): Deviation[] {
    if (!this.onStepCost) return this.apply(step, position);
    const started = performance.now();
    this.work.work = 0;
    try {
      return this.apply(step, position);
    } finally {
      if (step && typeof step === 'object' && typeof step.tenantId === 'string') this.onStepCost(step.tenantId, this.work.work, (performance.now() - started) / 1000);
    }
  }

  /** Time-based checks (stagnation by wall clock); returns deviations for idle agents. */
  tick(nowMs: number): Deviation[] {
    const out: Deviation[] = [];
    if (!Number.isFinite(nowMs)) return out;
    for (const agent of this.allAgents()) {
      for (const [runKey, run] of agent.runs()) {
        const settings = this.timed.get(run);
        if (!settings) continue;
        const draft = detectTimeStagnation(run, nowMs, settings.expectedStepMs, settings);
        if (!draft) continue;
        const runId = runKey === NO_RUN ? null : runKey;
        out.push({
          ...draft,
          schema: DEVIATION_SCHEMA,
          eventId: `${agent.tenantId}:${agent.agentId}:${runId ?? '-'}:stagnation:${draft.level}:${run.lastProgressMs}`,
          ts: new Date(nowMs).toISOString(),
          tenantId: agent.tenantId,
          agentId: agent.agentId,
          taskId: run.taskId,
          runId,
        });
      }
    }
    return out;
  }

  /**
   * The agent's state as one binary document (state/codec.ts), with each extra detector's exported state:
   * bytes as they are (drift), anything else as JSON.
   */
  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const agent = this.agents.get(tenantId)?.get(agentId);
    if (!agent) return undefined;
    const extra: Record<string, unknown> = {};
    for (const detector of this.extraDetectors) {
      const state = detector.exportState?.(tenantId, agentId);
      if (state !== undefined) extra[detector.name] = state;
    }
    return encodeAgentState(agent, extra);
  }

  /** Replaces the agent's state with an exported one (either codec version); a corrupt or cut one throws before anything changes. */
  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    const decoded = decodeAgentState(tenantId, agentId, state);
    // The plug-ins' state is theirs to replace (by what the document holds for them), as it was in maps of their own.
    const held = this.agents.get(tenantId)?.get(agentId);
    if (held) decoded.agent.takeSlots(held);
    this.forgetAgentState(tenantId, agentId);
    this.putAgent(decoded.agent);
    this.last = undefined;
    for (const detector of this.extraDetectors) {
      if (decoded.extra[detector.name] !== undefined) detector.importState?.(tenantId, agentId, decoded.extra[detector.name]);
    }
  }

  /** Drops an agent's state (partition revoked, agent retired). */
  forgetAgent(tenantId: string, agentId: string): void {
    this.forgetAgentState(tenantId, agentId);
    this.last = undefined;
    for (const detector of this.extraDetectors) detector.forget?.(tenantId, agentId);
  }

  /** The hosted plug-ins' slots (AgentRuns.useAgentSlots): fields of the engine's agent state. */
  private agentSlots(): AgentSlots {
    let claimed = 0;
    const agentOf = (tenantId: string, agentId: string): AgentState | undefined => {
      const last = this.last;
      if (last && last.agentId === agentId && last.tenantId === tenantId) return last;
      return this.agents.get(tenantId)?.get(agentId);
    };
    return {
      claim: () => claimed++,
      get: (tenantId, agentId, slot) => agentOf(tenantId, agentId)?.slot(slot),
      set: (tenantId, agentId, slot, value) => {
        const agent = agentOf(tenantId, agentId);
        if (!agent) return false;
        agent.setSlot(slot, value);
        return true;
      },
      count: (slot) => {
        let n = 0;
        for (const agent of this.allAgents()) if (agent.slot(slot) !== undefined) n++;
        return n;
      },
    };
  }

  private *allAgents(): IterableIterator<AgentState> {
    for (const tenant of this.agents.values()) yield* tenant.values();
  }

  private putAgent(agent: AgentState): AgentState {
    let tenant = this.agents.get(agent.tenantId);
    if (!tenant) {
      tenant = new Map();
      this.agents.set(agent.tenantId, tenant);
    }
    tenant.set(agent.agentId, agent);
    this.agentTotal++;
    return agent;
  }

  /** The tenantId string the engine already holds, so 100k agents of a tenant share one copy. */
  private tenantIdOf(tenantId: string): string {
    const tenant = this.agents.get(tenantId);
    if (tenant) for (const agent of tenant.values()) return agent.tenantId;
    return tenantId;
  }

  private forgetAgentState(tenantId: string, agentId: string): void {
    const tenant = this.agents.get(tenantId);
    if (!tenant || !tenant.delete(agentId)) return;
    this.agentTotal--;
    if (tenant.size === 0) this.agents.delete(tenantId);
  }

  private apply(input: StepEvent, position: Position | undefined): Deviation[] {
    if (!input || typeof input !== 'object') return [];
    const { tenantId, agentId, eventId } = input;
    if (typeof tenantId !== 'string' || typeof agentId !== 'string' || typeof eventId !== 'string') return [];
    // Every detector below reads the step within the bounds, so no step's detection cost is unbounded.
    const step = boundedStep(input, this.stepBounds, this.work);
    const seq = typeof step.seq === 'number' && Number.isFinite(step.seq) ? step.seq : Number.NaN;
    if (Number.isNaN(seq)) return [];
    const ctx = this.policyFor(step);
    const settings = ctx.policy;
    // Most steps share the previous step's policy object: skip the WeakMap lookup then.
    let policy = this.lastPolicy;
    if (!policy || policy.settings !== settings) {
      policy = compilePolicy(settings);
      this.lastPolicy = policy;
    }

    let agent = this.last;
    if (!agent || agent.agentId !== agentId || agent.tenantId !== tenantId) {
      agent = this.agents.get(tenantId)?.get(agentId);
      if (!agent) agent = this.putAgent(new AgentState(this.tenantIdOf(tenantId), agentId));
      this.last = agent;
    }
    const eventHash = hash32(eventId);
    if (agent.seenEvent(eventHash)) {
      this.onDuplicate?.(step, 'seen_event');
      return [];
    }
    const runKey = typeof step.runId === 'string' ? step.runId : NO_RUN;
    const taskId = typeof step.taskId === 'string' ? step.taskId : '';
    const withVectors = settings.nearDuplicate.enabled || settings.monologue.enabled || settings.repetition.enabled;
    let run = agent.find(runKey) ?? agent.add(runKey, new RunState(taskId, initialHistory(settings.loop.historySize), withVectors));
    if (seq <= run.lastSeq) {
      if (!(seq === 0 && restartedAfterGap(run, step.ts, settings.loop.runRestartGapMs ?? DEFAULT_RUN_RESTART_GAP_MS))) {
        this.onDuplicate?.(step, 'stale_seq');
        return [];
      }
      // The agent started over under the same runId after a pause: a new run, not a redelivery.
      run = agent.add(runKey, new RunState(taskId, initialHistory(settings.loop.historySize), withVectors));
    }
    agent.rememberEvent(eventHash);
    run.lastSeq = seq;
    if (typeof step.ts === 'string') run.lastTs = step.ts;

    // One array reused by every step (detection is synchronous); stamp copies what it returns.
    const drafts = this.drafts;
    drafts.length = 0;
    const stagnation = settings.stagnation;
    let nowMs = Number.NaN;
    if (stagnation.enabled && (ctx.expectedStepMs ?? 0) > 0) {
      nowMs = Date.parse(step.ts);
      this.timed.set(run, { expectedStepMs: ctx.expectedStepMs as number, warningFactor: stagnation.warningFactor, criticalFactor: stagnation.criticalFactor });
      if (!Number.isFinite(run.lastProgressMs)) run.lastProgressMs = nowMs;
    }
    if (position && typeof position === 'object' && typeof position.milestoneId === 'string') this.wordsOf(run).milestone = position.milestoneId;
    if (position && typeof position === 'object' && Array.isArray(position.completed) && positionMovedForward(run, position)) {
      markProgress(run, seq, nowMs);
      clearNearDuplicateEvidence(run);
      clearFruitless(run);
    }

    // A user message the producer did not send as a step (the LLM proxy leaves user turns out): the
    // agent is answering someone, as after a user message step (P6).
    const attributes = step.attributes;
    if (attributes !== null && typeof attributes === 'object' && attributes.afterUser === true) endSilentMessages(run);

    switch (step.kind) {
      case 'action':
        this.onAction(run, step, policy, ctx, drafts);
        break;
      case 'observation':
        this.onObservation(agent, run, step, policy, drafts);
        break;
      case 'message':
        this.onMessage(run, step, seq, settings, drafts);
        break;
      case 'milestone':
        if (typeof step.milestone?.id === 'string') this.wordsOf(run).milestone = step.milestone.id;
        if (step.milestone?.status === 'done') {
          markProgress(run, seq, nowMs);
          clearNearDuplicateEvidence(run);
          clearFruitless(run);
        }
        break;
      case 'compaction':
        armCompactionGuard(run, settings.loop.postCompactionWindow);
        clearNearDuplicateEvidence(run);
        clearFruitless(run);
        if (settings.compactionLoop?.enabled) {
          const loop = detectCompactionLoop(run, seq, settings.compactionLoop);
          if (loop) drafts.push(loop);
        }
        break;
      default:
        break;
    }

    if (settings.budget.enabled) {
      const usage = step.usage;
      if (usage && typeof usage === 'object') {
        run.tokens += finite(usage.inputTokens) + finite(usage.outputTokens);
        run.costUsd += finite(usage.costUsd);
      }
      drafts.push(...detectBudget(run, settings.budget, ctx.maxSteps));
    }

    if (drafts.length > 0) this.nameThings(run, drafts);
    let failure: unknown;
    for (const detector of this.extraDetectors) {
      try {
        drafts.push(...detector.onStep(step, position, ctx));
      } catch (error) {
        // The other detectors still run; then the step fails with the reason (retried, then dead-lettered).
        failure ??= new Error(`detector ${detector.name} failed on ${JSON.stringify(eventId)}: ${(error as Error)?.message ?? String(error)}`);
      }
    }
    if (failure) throw failure;
    // P12: once the answer is handed in, a message restating it is the end of the run, not repetition.
    if (run.handedIn && step.kind === 'message') removeDetector(drafts, 'semantic_repetition');
    namedConstraintFirst(drafts);
    return this.stamp(step, seq, run.taskId, drafts);
  }

  private onAction(run: RunState, step: Extract<StepEvent, { kind: 'action' }>, policy: CompiledPolicy, ctx: DetectionContext, drafts: DeviationDraft[]): void {
    const settings = policy.settings;
    const body = step.action ?? ({} as { tool?: unknown; args?: unknown; callId?: unknown });
    const tool = typeof body.tool === 'string' ? body.tool : String(body.tool);
    const args = body.args;
    const toolHash = hash32(tool);
    // argsHash(tool, args), without hashing the tool name a second time.
    const argsJson = canonicalJson(args ?? {});
    const callArgs = hash32(argsJson, toolHash);
    run.actionSinceMessage = true;
    run.steps++;
    countActionForCompaction(run);
    endSilentMessages(run);

    if (settings.constraints.enabled && policy.isDangerous(tool)) drafts.push(dangerousToolViolation(tool, hashHex(callArgs)));

    // P12: a call that hands in the answer marks the run done; any other (non-exempt) call is work again.
    const finalAnswer = policy.isFinalAnswer(tool);
    const restating = finalAnswer && run.handedIn;
    if (finalAnswer) run.handedIn = true;
    else if (!policy.isExempt(tool)) run.handedIn = false;

    if (!policy.isExempt(tool)) {
      this.wordsOf(run).onAction(toolHash, argsJson);
      const action = args && typeof args === 'object' && typeof (args as Record<string, unknown>).action === 'string' ? (args as Record<string, string>).action : undefined;
      const isPoll = policy.isPollName(tool) || (action !== undefined && policy.isPollName(`${tool}.${action}`));
      const afterWork = settings.nearDuplicate.enabled && workSinceLastCall(run, toolHash);
      // P11: the same call once volatile ids are masked, right after the previous call of the tool.
      const stable = settings.nearDuplicate.enabled && settings.nearDuplicate.volatileArgs === true ? hash32(maskVolatileArgs(argsJson), toolHash) : 0;
      const stableSame = stable !== 0 && stable !== callArgs && run.stableArgs?.get(toolHash) === stable && lastCallIsOf(run, toolHash);
      if (stable !== 0) rememberStableArgs(run, toolHash, stable);
      // A poll is judged by the upstream rows on its args: with volatile ids masked, a poll that only
      // renews its poll id is the same poll (its outcomes still decide whether it made progress).
      const recordArgs = isPoll && stable !== 0 ? stable : callArgs;
      // ...but not the same call for ping_pong and cycle_repeat, which compare exact args (P2, P11).
      const maskedArgs = recordArgs !== callArgs;
      const loop = restating ? null : detectToolLoop(run, { tool, toolHash, argsHash: recordArgs, isPoll, maskedArgs }, settings.loop);
      // At most one loop deviation per action: the upstream table first, then the cycle (P2), then the
      // third identical call (P1's early stage: after two outcomes, or in one batch before any came back).
      // Restating a handed-in answer is none of them (P12).
      const cycle = !loop && !restating && !maskedArgs && settings.cycle?.enabled ? detectCycle(run, tool, recordArgs, settings.cycle) : null;
      const nearDuplicate = settings.nearDuplicate.enabled && !isPoll && !restating && !policy.isNearDuplicateIgnored(tool);
      const exactRepeat = repeatsLastCall(run, toolHash, callArgs);
      const early =
        !loop && !cycle && nearDuplicate && (stableSame || exactRepeat)
          ? (nearDuplicateEarlyOnAction(run, tool, toolHash, hashHex(callArgs), settings.nearDuplicate, !exactRepeat) ??
            (exactRepeat ? identicalCallsInOneBatch(run, tool, toolHash, callArgs, settings.nearDuplicate) : null))
          : null;
      const first = loop ?? cycle ?? early;
      if (first) drafts.push(first);
      const callId = typeof body.callId === 'string' ? hash32(body.callId) : 0;
      const historySize = settings.loop.historySize;
      if (run.size === run.capacity && run.capacity < historySize) run.grow(Math.min(historySize, run.capacity * 2));
      run.history.push(toolHash, recordArgs, step.seq, callId, (isPoll ? RecordFlag.Poll : 0) | (maskedArgs ? RecordFlag.MaskedArgs : 0));
      run.lastTool = tool;

      // Poll tools are known_poll_no_progress's: their args never change by design.
      if (nearDuplicate) {
        const sketch = this.scratch;
        const text = textOf(args, MAX_EMBED_CHARS);
        const vector = this.embedVector(text, embedderChoice(settings, 'nearDuplicate'), step);
        if (vector) {
          sketchInto(vector, sketch);
          const previous = run.history.size > 1 ? run.history.slot(1) : -1;
          const sameArgs = stableSame || (previous >= 0 && run.history.tool(previous) === toolHash && run.history.args(previous) === callArgs);
          const longArgs = text.length >= (settings.nearDuplicate.longArgsChars ?? Number.POSITIVE_INFINITY);
          nearDuplicateOnAction(run, toolHash, sketch, sameArgs, step.seq, longArgs, longArgs ? NO_TARGETS : targetSignature(text, paginationOf(args)), afterWork);
        }
      }
    }

    if (settings.stagnation.enabled) {
      const stagnation = detectStepStagnation(run, step.seq, settings.stagnation);
      if (stagnation) drafts.push(stagnation);
    }
    void ctx;
  }

  private onMessage(run: RunState, step: Extract<StepEvent, { kind: 'message' }>, seq: number, settings: CompiledPolicy['settings'], drafts: DeviationDraft[]): void {
    const role = step.message?.role;
    if (role === 'user') {
      endSilentMessages(run);
      return;
    }
    if (role !== 'assistant') return;
    const text = typeof step.message.text === 'string' ? step.message.text : '';
    // Counted before the upstream detectors run (they reset the "action since message" flag), and only once
    // the run has acted: an agent plans before it acts (P6). An output (an answer shown to the user, the
    // OpenHands SDK's agent message event) is no planning: it counts from the run's first step.
    // A run that handed in its answer is done: restating it is not a monologue (P12).
    const done = run.handedIn;
    const counted = run.steps > 0 || step.message.type === 'output';
    const silent = settings.monologue.enabled && settings.monologue.noActionWarning !== undefined && counted && !done ? countSilentMessage(run, seq) : 0;
    const before = drafts.length;
    if (settings.monologue.enabled && !done) {
      // semantic_repetition is a plug-in with its own embedder (DESIGN §5.6); monologue's is chosen here.
      const choice = embedderChoice(settings, 'monologue');
      const vector = this.embedVector(monologueText(text, settings.monologue), choice, step);
      if (vector) {
        sketchInto(vector, this.scratch);
        drafts.push(...detectMessageRepetition(run, this.scratch, seq, withEmbedderThresholds(settings, this.vectors.served(choice), 'hashing')));
      }
    }
    if (silent > 0 && !drafts.slice(before).some((d) => d.detector === 'monologue')) {
      const monologue = detectNoActionMonologue(run, silent, text, settings.monologue);
      if (monologue) drafts.push(monologue);
    }
    if (settings.contentRepetition?.enabled) {
      const repeated = detectContentRepetition(text, seq, settings.contentRepetition);
      if (repeated) drafts.push(repeated);
    }
  }

  private onObservation(agent: AgentState, run: RunState, step: Extract<StepEvent, { kind: 'observation' }>, policy: CompiledPolicy, drafts: DeviationDraft[]): void {
    const settings = policy.settings;
    const body = step.observation ?? ({} as Record<string, unknown>);
    const tool = typeof body.tool === 'string' ? body.tool : String(body.tool);
    if (policy.isExempt(tool)) {
      // An exempt tool is never flagged, but its observation still uses up the compaction guard's window.
      skipUnderGuard(run);
      return;
    }
    const toolHash = hash32(tool);
    const callId = typeof body.callId === 'string' ? hash32(body.callId) : 0;
    const slot = run.history.findForObservation(toolHash, callId);
    const options = policy.normalizationFor(tool);
    // The observation itself has the outcome's fields: no copy per event.
    const outcome: OutcomeLike = body;
    const result = resultHash(outcome, options);
    const unknown = isUnknownToolOutcome(outcome);
    const failed = isErrorOutcome(outcome);
    const error = failed ? errorHash(outcome, options) : 0;
    run.words?.onOutcome(toolHash, failed ? (typeof body.error === 'string' ? body.error : canonicalJson(body.error ?? body.content ?? null)) : null);
    let callArgs = 0;
    let firstSeq = step.seq;
    if (slot >= 0) {
      run.history.setOutcome(slot, result, error, (failed ? RecordFlag.Error : 0) | (unknown ? RecordFlag.UnknownTool : 0));
      callArgs = run.history.args(slot);
      firstSeq = run.history.seq(slot);
    }
    // P8: the failure the agent's earlier runs ended on, again in this run.
    if (failed && !unknown && slot >= 0) {
      const across = detectCrossRunFailure(agent, run, tool, toolHash, error, settings.loop);
      if (across) drafts.push(across);
    }
    // P7: a failure, or a success that found nothing; polls are known_poll_no_progress's ("no new
    // messages" is what a poll says until something happens).
    if (settings.loop.fruitlessStreakWarning !== undefined && (slot < 0 || (run.history.flags(slot) & RecordFlag.Poll) === 0)) {
      const content = body.content;
      const empty = !failed && (typeof content === 'string' ? policy.isEmptyResult(content) : content !== undefined && content !== null && policy.isEmptyResult(canonicalJson(content)));
      const streak = detectFruitless(run, tool, toolHash, failed && !unknown ? FruitOutcome.Failed : empty ? FruitOutcome.Empty : FruitOutcome.Progress, settings.loop, firstSeq, step.seq);
      if (streak) drafts.push(streak);
    }
    // P10: the very same call failing again and again, whatever the errors say.
    let sameCall: DeviationDraft | null = null;
    if (failed && !unknown && slot >= 0 && settings.loop.sameCallFailureWarning !== undefined) {
      sameCall = detectSameCallFailure(run, tool, slot, policy.isRetryableError(typeof body.error === 'string' ? body.error : ''), settings.loop);
    }
    // Checked here so the common case (no compaction lately) allocates no triple.
    const guard = run.guardLeft > 0 ? observeUnderGuard(run, tool, [toolHash, callArgs, result], firstSeq) : null;
    if (guard) drafts.push(guard);

    if (settings.nearDuplicate.enabled && !policy.isNearDuplicateIgnored(tool)) {
      const sketch = this.scratch;
      const choice = embedderChoice(settings, 'nearDuplicate');
      const vector = this.embedVector(observationText(body), choice, step);
      if (vector) {
        sketchInto(vector, sketch);
        const retryable = failed && policy.isRetryableError(typeof body.error === 'string' ? body.error : '');
        const near = nearDuplicateOnObservation(run, tool, toolHash, sketch, result, error, withEmbedderThresholds(settings, 'hashing', this.vectors.served(choice)).nearDuplicate, retryable);
        if (near) {
          drafts.push(near);
          // One loop deviation per observation: the same error repeated is already P1's.
          sameCall = null;
        }
      }
    }
    if (sameCall) drafts.push(sameCall);
  }

  private wordsOf(run: RunState): EvidenceMemory {
    if (!run.words) run.words = new EvidenceMemory();
    return run.words;
  }

  /**
   * Evidence that names things: each built-in deviation of this step gets redacted, bounded previews of
   * the call it is about (args, the fields that changed, the error), the paired call of a ping-pong and
   * the run's milestone, on top of its hashes.
   */
  private nameThings(run: RunState, drafts: DeviationDraft[]): void {
    const words = run.words;
    if (!words) return;
    for (const draft of drafts) {
      const evidence = { ...draft.evidence };
      const tool = evidence['tool'];
      if (typeof tool === 'string') {
        const detector = draft.detector;
        const withError = detector === 'error_repeat' || detector === 'unknown_tool_repeat' || detector === 'near_duplicate_calls' || detector === 'compaction_loop_persisted';
        const withChange = detector === 'near_duplicate_calls' || detector === 'error_repeat';
        Object.assign(evidence, words.describe(hash32(tool), { withError, withChange }));
      }
      const paired = evidence['pairedTool'];
      if (typeof paired === 'string') {
        const other = words.describe(hash32(paired), { withError: false, withChange: false });
        if (other.argsPreview !== undefined) evidence['pairedArgsPreview'] = other.argsPreview;
      }
      if (words.milestone !== null) evidence['milestone'] = words.milestone;
      draft.evidence = evidence;
    }
  }

  /**
   * The embedding of a text from the embedder serving `choice` (hashing: into a reused buffer, as it is
   * only folded, never kept); undefined when a semantic vector was not prefetched.
   */
  private embedVector(text: string, choice: EmbedderName, step: StepEvent): Float32Array | undefined {
    const agent = choice === 'hashing' ? '' : agentKey(step.tenantId, step.agentId);
    return this.vectors.vectorOf(choice, agent, text, this.vectorScratch);
  }

  private stamp(step: StepEvent, seq: number, taskId: string, drafts: DeviationDraft[]): Deviation[] {
    if (drafts.length === 0) return [];
    const used = new Set<string>();
    return drafts.map((draft) => {
      let eventId = `${step.eventId}:${draft.detector}:${draft.level}`;
      for (let n = 2; used.has(eventId); n++) eventId = `${step.eventId}:${draft.detector}:${draft.level}:${n}`;
      used.add(eventId);
      return {
        schema: DEVIATION_SCHEMA,
        eventId,
        ts: typeof step.ts === 'string' ? step.ts : new Date(0).toISOString(),
        tenantId: step.tenantId,
        agentId: step.agentId,
        taskId,
        runId: typeof step.runId === 'string' ? step.runId : null,
        detector: draft.detector,
        level: draft.level,
        count: draft.count,
        atSeq: seq,
        loopStartSeq: Math.max(0, Math.min(draft.loopStartSeq, seq)),
        evidence: draft.evidence,
        message: draft.message,
      };
    });
  }
}

/**
 * A call that breaks a charter constraint and is on the dangerous-tool list gives two violations; the one
 * naming the constraint goes first, so the freeze it causes (and its escalation) names what the agent was told.
 */
function namedConstraintFirst(drafts: DeviationDraft[]): void {
  const generic = drafts.findIndex((d) => d.detector === 'constraint_violation' && d.evidence['constraint'] === 'dangerous_tool');
  if (generic < 0) return;
  const named = drafts.findIndex((d, i) => i > generic && d.detector === 'constraint_violation' && d.level === 'critical' && d.evidence['constraintId'] !== undefined);
  if (named < 0) return;
  const [draft] = drafts.splice(named, 1);
  drafts.splice(generic, 0, draft);
}

/** The text of an observation that near-duplicate calls compares: content, then error. */
function observationText(body: { content?: unknown; error?: unknown }): string {
  return `${textOf(body.content ?? '', MAX_EMBED_CHARS)} ${typeof body.error === 'string' ? body.error.slice(0, MAX_EMBED_CHARS) : ''}`;
}

/**
 * Whether another tool's call succeeded since the previous call of this tool (newest prior records first):
 * work done in between, so repeating this call (an `ls` after an edit) may see a changed world.
 */
function workSinceLastCall(run: RunState, toolHash: number): boolean {
  const h = run.history;
  for (let i = 0; i < h.size; i++) {
    const s = h.slot(i);
    if (h.tool(s) === toolHash) return false;
    const flags = h.flags(s);
    if ((flags & RecordFlag.Outcome) !== 0 && (flags & RecordFlag.Error) === 0) return true;
  }
  return false;
}

/** P6 with `ignoreNumbers`: "attempt 1" and "attempt 2" are the same message. */
function monologueText(text: string, settings: { ignoreNumbers?: boolean }): string {
  return settings.ignoreNumbers === true ? text.replace(/\d+/g, '0') : text;
}

function removeDetector(drafts: DeviationDraft[], detector: string): void {
  for (let i = drafts.length - 1; i >= 0; i--) if (drafts[i].detector === detector) drafts.splice(i, 1);
}

/** Whether the newest prior record is a call of this tool (whatever its args). */
function lastCallIsOf(run: RunState, toolHash: number): boolean {
  const h = run.history;
  return h.size > 0 && h.tool(h.slot(0)) === toolHash;
}

/** Tools whose masked args a run remembers (P11): the near-duplicate slots keep three; a few more is plenty. */
const STABLE_ARGS_TOOLS = 8;

function rememberStableArgs(run: RunState, toolHash: number, stable: number): void {
  let map = run.stableArgs;
  if (!map) map = run.stableArgs = new Map();
  else if (map.size >= STABLE_ARGS_TOOLS && !map.has(toolHash)) map.delete(map.keys().next().value as number);
  map.set(toolHash, stable);
}

/** Whether the newest prior record is a call of this tool with exactly these args (nothing in between). */
function repeatsLastCall(run: RunState, toolHash: number, argsHash: number): boolean {
  const h = run.history;
  if (h.size === 0) return false;
  const last = h.slot(0);
  return h.tool(last) === toolHash && h.args(last) === argsHash;
}

/** Records a new run's history starts with (it doubles up to the policy's size as the run makes calls). */
const INITIAL_HISTORY = 8;

function initialHistory(historySize: number): number {
  return Math.max(1, Math.min(historySize, INITIAL_HISTORY));
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Whether a seq-0 step comes at least `gapMs` (by step time) after the run's last step: the agent restarted. */
function restartedAfterGap(run: RunState, ts: unknown, gapMs: number): boolean {
  if (run.lastTs === '' || typeof ts !== 'string') return false;
  const gap = Date.parse(ts) - Date.parse(run.lastTs);
  return Number.isFinite(gap) && gap >= gapMs;
}
