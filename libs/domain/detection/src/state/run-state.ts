/**
 * Everything the detectors remember about one (tenant, agent, run): the call history, reported pattern
 * keys (de-duplication), the compaction guard, the last assistant message, the near-duplicate slots,
 * stagnation and budget counters. Plain numbers and one Int32Array, serializable for Redis.
 */
import type { EvidenceMemory } from '../evidence/evidence-memory';
import { RunHistory } from './run-history';
import { SKETCH_WORDS } from './sketch';

/** The empty guard list every run shares (frozen: the guard replaces its list, never pushes to it). */
export const NO_TRIPLES = Object.freeze([]) as unknown as number[];

/** Tools remembered by the near-duplicate detector (least recently used evicted). */
export const NEAR_DUP_SLOTS = 3;
// Per-slot meta words (see NearMeta in near-duplicate.detector.ts).
export const NEAR_META = 13;
/** Words of the near-duplicate slot meta, right after the history records. */
const NEAR_WORDS = NEAR_DUP_SLOTS * NEAR_META;

/** Small integer counters kept in the buffer after the near-duplicate meta: 4 bytes each instead of an 8-byte field. */
const enum Counter {
  LastSeq = 0,
  GuardLeft = 1, // observations the compaction guard still watches
  GuardWindow = 2,
  MonologueCount = 3,
  MonologueStartSeq = 4,
  RepetitionCount = 5,
  RepetitionStartSeq = 6,
  ActionsSinceProgress = 7,
  ProgressStartSeq = 8,
  TimeReported = 9, // 1 = warning sent, 2 = critical sent for the current stall
  Steps = 10,
  BudgetReported = 11, // bit per (metric, level)
  Touched = 12,
  HasMessage = 13,
  ActionSinceMessage = 14,
  NearUsed = 15, // the near-duplicate slots are in use
}
export const MORE_WORDS = 8;
/** Counters before the project's ones (the v2 layout). */
export const V2_COUNTER_WORDS = 16;
/** Words of the counters: the upstream detectors' (see Counter), then the project's (see More). */
const COUNTER_WORDS = V2_COUNTER_WORDS + MORE_WORDS;
/**
 * Counters of the project's detectors (PROJECT-RULES.md: compaction_loop, monologue with no action, the
 * fruitless streak), after
 * the upstream counters in the run buffer, at `moreOffset` (state codec v3; v2 documents are widened).
 */
export const enum More {
  HasCompaction = 0,
  ActionsSinceCompaction = 1,
  CompactionChain = 2,
  CompactionStartSeq = 3,
  SilentMessages = 4, // assistant messages since the last action or user message
  SilentStartSeq = 5,
  FruitlessTool = 6, // toolHash of the tool whose outcomes keep failing or finding nothing (P7)
  FruitlessCount = 7, // its consecutive fruitless outcomes
}

/** Offset of the near-duplicate sketches from `vectorsOffset`, in words (the last message comes first). */
export const NEAR_VECTORS_OFFSET = SKETCH_WORDS;
/** Words of the sketches: the last message, then per near-duplicate slot its args and result. */
export const VECTORS_WORDS = SKETCH_WORDS + NEAR_DUP_SLOTS * SKETCH_WORDS * 2;

let lastProgressKey = '';

/**
 * The key of the previous call when equal to this one: runs at the same position (a fleet mostly is,
 * e.g. "0::0" without a map) then hold one string between them, not one each.
 */
function internProgressKey(value: string): string {
  if (value === lastProgressKey) return lastProgressKey;
  lastProgressKey = value;
  return value;
}

/**
 * The run is its history (extended rather than owned: one object less per run) and the buffer holds, in
 * order, the history records, the near-duplicate slot meta, the small counters and, once needed, the sketches.
 */
export class RunState extends RunHistory {
  taskId: string;
  /** Pattern key → highest multiple of the threshold already reported. */
  reported: Map<string, number> | null = null;

  /** Compaction guard: (tool, args, result, firstSeq) seen since arming (guardLeft, guardWindow are counters). */
  guardTriples: number[] = NO_TRIPLES;
  /** True once the buffer has room for the sketches (at `vectorsOffset`). */
  hasVectors: boolean;
  /** Null until a wall-clock time is known (a tagged field: no number box per run when unused). */
  lastProgressMs: number | null = null;
  /** Set through `progressKey`: runs at the same position share one string (see internProgressKey). */
  private progress = '';
  // Budget usage that may be fractional or large; steps is a counter.
  tokens = 0;
  costUsd = 0;
  /** Tool name of the newest call (the history keeps hashes only): names the other side of a ping-pong. */
  lastTool = '';
  /**
   * `ts` of the newest step applied, as sent (parsed only when a seq-0 step asks whether the agent
   * restarted). In memory only: after a restore it is unknown, and a seq-0 step is then a redelivery.
   */
  lastTs = '';
  /** The words of the run's recent calls, for evidence; null until the first call. */
  words: EvidenceMemory | null = null;
  /**
   * The run handed in its answer (a call of a `finalAnswerTools` tool, P12) and has not gone back to work
   * since: restatements are the end of the run, not a loop. Saved in the codec's run flags.
   */
  handedIn = false;
  /**
   * P11: the args of each tool's newest call with volatile ids masked (toolHash → hash), at most a few
   * tools. In memory only: after a restore the next call of a tool starts the comparison over.
   */
  stableArgs: Map<number, number> | null = null;

  constructor(taskId: string, historySize: number, withVectors = false) {
    super(historySize, NEAR_WORDS + COUNTER_WORDS + (withVectors ? VECTORS_WORDS : 0));
    this.taskId = taskId;
    this.hasVectors = withVectors;
    this.lastSeq = -1;
  }

  /** The position key the stagnation detector last saw (completed:milestone:progress). */
  get progressKey(): string {
    return this.progress;
  }
  set progressKey(value: string) {
    this.progress = internProgressKey(value);
  }

  /** The call history (the run itself). */
  get history(): RunHistory {
    return this;
  }

  /** Words of `data` before the counters: the history records and the near-duplicate meta (what the codec keeps). */
  get recordsAndMetaWords(): number {
    return this.extraOffset + NEAR_WORDS;
  }

  /** Word offset of the sketches in `data` (valid once hasVectors). */
  get vectorsOffset(): number {
    return this.extraOffset + NEAR_WORDS + COUNTER_WORDS;
  }

  // The counters (see Counter): accessors keep the detectors' plain-field style.
  get lastSeq(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.LastSeq];
  }
  set lastSeq(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.LastSeq] = value;
  }
  get guardLeft(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.GuardLeft];
  }
  set guardLeft(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.GuardLeft] = value;
  }
  get guardWindow(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.GuardWindow];
  }
  set guardWindow(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.GuardWindow] = value;
  }
  get monologueCount(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.MonologueCount];
  }
  set monologueCount(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.MonologueCount] = value;
  }
  get monologueStartSeq(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.MonologueStartSeq];
  }
  set monologueStartSeq(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.MonologueStartSeq] = value;
  }
  get repetitionCount(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.RepetitionCount];
  }
  set repetitionCount(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.RepetitionCount] = value;
  }
  get repetitionStartSeq(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.RepetitionStartSeq];
  }
  set repetitionStartSeq(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.RepetitionStartSeq] = value;
  }
  get actionsSinceProgress(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.ActionsSinceProgress];
  }
  set actionsSinceProgress(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.ActionsSinceProgress] = value;
  }
  get progressStartSeq(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.ProgressStartSeq];
  }
  set progressStartSeq(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.ProgressStartSeq] = value;
  }
  get timeReported(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.TimeReported];
  }
  set timeReported(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.TimeReported] = value;
  }
  get steps(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.Steps];
  }
  set steps(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.Steps] = value;
  }
  get budgetReported(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.BudgetReported];
  }
  set budgetReported(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.BudgetReported] = value;
  }
  get touched(): number {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.Touched];
  }
  set touched(value: number) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.Touched] = value;
  }
  get hasMessage(): boolean {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.HasMessage] !== 0;
  }
  set hasMessage(value: boolean) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.HasMessage] = value ? 1 : 0;
  }
  get actionSinceMessage(): boolean {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.ActionSinceMessage] !== 0;
  }
  set actionSinceMessage(value: boolean) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.ActionSinceMessage] = value ? 1 : 0;
  }
  get nearUsed(): boolean {
    return this.data[this.extraOffset + NEAR_WORDS + Counter.NearUsed] !== 0;
  }
  set nearUsed(value: boolean) {
    this.data[this.extraOffset + NEAR_WORDS + Counter.NearUsed] = value ? 1 : 0;
  }

  /** Makes room for the sketches (a run created without them grows its buffer once). */
  ensureVectors(): void {
    if (this.hasVectors) return;
    const grown = new Int32Array(this.vectorsOffset + VECTORS_WORDS);
    grown.set(this.data);
    this.data = grown;
    this.hasVectors = true;
  }

  /** Word offset of the project's detectors' counters in `data` (see More). */
  get moreOffset(): number {
    return this.extraOffset + NEAR_WORDS + V2_COUNTER_WORDS;
  }

  /** Words of `data` before the project's counters: where a v2 document's buffer is split to be widened. */
  get v2CounterEnd(): number {
    return this.moreOffset;
  }

  ensureNearDup(): void {
    this.nearUsed = true;
    this.ensureVectors();
  }
}
