/**
 * `semantic_repetition` (DESIGN §5.3, conformance README "Other detectors"): at each assistant message,
 * the last `repetition.window` assistant messages of the run are pairwise similar (each consecutive pair
 * at or above the threshold) whatever happened between them; reported as a warning with count = window,
 * again each time the chain reaches a new multiple of the window.
 *
 * It compares with the embedder the policy chose for it (`embedders.semanticRepetition`) and that
 * embedder's threshold (`embedders.<name>.repetitionThreshold`, hashing: `repetition.threshold`), read
 * synchronously from a VectorSource the stream handler prefetched (`textsFor`). Built in: the engine
 * plugs it in itself. Per run it keeps one 64-byte sketch of the previous message (as a
 * one-byte string: no typed array per run) and the chain.
 */
import type { PolicySettings, Position, StepEvent } from '@wayfinder/contracts';
import { agentKey, type EmbeddingRequest, type VectorSource } from '@wayfinder/embeddings';
import { AgentRuns, type AgentSlots, RUN_ID_FIELD } from '../state/agent-runs';
import { ByteReader, ByteWriter } from '../state/bytes';
import { EMPTY_SKETCH_STRING, SKETCH_BYTES, SKETCH_WORDS, sketchCosine, sketchFromString, sketchInto, sketchString } from '../state/sketch';
import { embedderChoice, repetitionThreshold } from '../policy/embedder-thresholds';
import type { DetectionContext, DeviationDraft, StepDetector } from '../types';

interface RepetitionRun {
  /** The run's id, kept by AgentRuns (its RunKey: no wrapper per agent). */
  runId: string;
  /** The previous message's sketch, as its bytes in a string (state/sketch.ts sketchString). */
  previous: string;
  hasPrevious: boolean;
  count: number;
  startSeq: number;
  /** Highest multiple of the window already reported for the current chain. */
  reported: number;
}

/** Runs kept per agent (least recently used out): sub-agent runs come and go. */
const MAX_RUNS = 16;
const STATE_VERSION = 1;
const writer = new ByteWriter();

export class SemanticRepetitionDetector implements StepDetector {
  readonly name = 'semantic_repetition' as const;
  private readonly agents = new AgentRuns<RepetitionRun>(MAX_RUNS, RUN_ID_FIELD);
  private readonly sketch = new Int32Array(SKETCH_WORDS);
  private readonly previous = new Int32Array(SKETCH_WORDS);

  constructor(private readonly vectors: VectorSource) {}

  /** What onStep will read: the assistant message's text, when the policy enables the detector. */
  textsFor(step: StepEvent, _position: Position | undefined, ctx: DetectionContext): EmbeddingRequest[] {
    if (!ctx.policy.repetition.enabled || step.kind !== 'message' || step.message?.role !== 'assistant') return [];
    return [{ choice: embedderChoice(ctx.policy, 'semanticRepetition'), agent: agentKey(step.tenantId, step.agentId), text: messageText(step) }];
  }

  onStep(step: StepEvent, _position: Position | undefined, ctx: DetectionContext): DeviationDraft[] {
    const policy = ctx.policy;
    if (!policy.repetition.enabled || step.kind !== 'message' || step.message?.role !== 'assistant') return [];
    const choice = embedderChoice(policy, 'semanticRepetition');
    const served = this.vectors.served(choice);
    const vector = this.vectors.vectorOf(choice, served === 'hashing' ? '' : agentKey(step.tenantId, step.agentId), messageText(step));
    if (!vector) return [];
    sketchInto(vector, this.sketch);
    const run = this.runOf(step);
    const threshold = repetitionThreshold(policy, served);
    let similarity = 0;
    if (run.hasPrevious) {
      sketchFromString(run.previous, this.previous);
      similarity = sketchCosine(this.sketch, 0, this.previous, 0);
    }
    if (run.hasPrevious && similarity >= threshold) {
      run.count++;
    } else {
      run.count = 1;
      run.startSeq = step.seq;
      run.reported = 0;
    }
    run.previous = sketchString(this.sketch);
    run.hasPrevious = true;
    return this.report(run, policy, threshold, similarity, served);
  }

  exportState(tenantId: string, agentId: string): Uint8Array | undefined {
    const runs = this.agents.runs(tenantId, agentId);
    if (runs.length === 0) return undefined;
    const w = writer;
    w.reset();
    w.u8(STATE_VERSION);
    w.u32(runs.length);
    for (const [runId, run] of runs) {
      w.string(runId);
      w.u8(run.hasPrevious ? 1 : 0);
      w.u32(run.count);
      w.f64(run.startSeq);
      w.u32(run.reported);
      w.byteString(run.previous);
    }
    return w.finish();
  }

  importState(tenantId: string, agentId: string, state: unknown): void {
    if (!(state instanceof Uint8Array)) return;
    const r = new ByteReader(state, 'semantic repetition state');
    const version = r.u8();
    if (version !== STATE_VERSION) r.fail(`unsupported version ${version}`);
    const count = r.u32();
    const runs: Array<[string, RepetitionRun]> = [];
    for (let i = 0; i < count; i++) {
      const runId = r.string();
      const run = newRun();
      run.hasPrevious = r.u8() === 1;
      run.count = r.u32();
      run.startSeq = r.f64();
      run.reported = r.u32();
      const bytes = r.view8(SKETCH_BYTES);
      run.previous = String.fromCharCode.apply(null, bytes as unknown as number[]);
      runs.push([runId, run]);
    }
    r.expectEnd();
    this.agents.replace(tenantId, agentId, runs);
  }

  forget(tenantId: string, agentId: string): void {
    this.agents.forget(tenantId, agentId);
  }

  /** Its per-agent state in the engine's agents (see StepDetector). */
  useAgentSlots(slots: AgentSlots): void {
    this.agents.useAgentSlots(slots);
  }

  private report(run: RepetitionRun, policy: PolicySettings, threshold: number, similarity: number, served: string): DeviationDraft[] {
    const window = policy.repetition.window;
    const multiple = Math.floor(run.count / window);
    if (run.count < window || multiple <= run.reported) return [];
    run.reported = multiple;
    return [
      {
        detector: 'semantic_repetition',
        level: 'warning',
        count: window,
        atSeq: 0,
        loopStartSeq: run.startSeq,
        evidence: { similarity: Math.round(similarity * 1000) / 1000, window, threshold, embedder: served },
        message: `The last ${window} outputs say nearly the same thing (similarity ≥ ${threshold}); the work is not moving forward.`,
      },
    ];
  }

  private runOf(step: StepEvent): RepetitionRun {
    return this.agents.getOrCreate(step.tenantId, step.agentId, step.runId ?? '', newRun);
  }
}

function newRun(): RepetitionRun {
  return { runId: '', previous: EMPTY_SKETCH_STRING, hasPrevious: false, count: 0, startSeq: 0, reported: 0 };
}

function messageText(step: Extract<StepEvent, { kind: 'message' }>): string {
  return typeof step.message.text === 'string' ? step.message.text : '';
}
