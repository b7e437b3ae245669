/**
 * Everything the detectors remember about one (tenant, agent, run): the call history, reported pattern
 * keys (de-duplication), the compaction guard, the last assistant message, the near-duplicate slots,
 * stagnation and budget counters. Plain numbers and typed arrays, serializable for Redis.
 */
import { RunHistory, WORDS } from './run-history';
import { SKETCH_BYTES } from './sketch';

const NO_TRIPLES: number[] = [];

/** Tools remembered by the near-duplicate detector (least recently used evicted). */
export const NEAR_DUP_SLOTS = 3;
// Per-slot meta words (see NearMeta in near-duplicate.detector.ts).
export const NEAR_META = 13;
/** Offset of the near-duplicate slots in `vectors` (the last message comes first). */
export const NEAR_VECTORS_OFFSET = SKETCH_BYTES;
const VECTORS_LENGTH = SKETCH_BYTES + NEAR_DUP_SLOTS * SKETCH_BYTES * 2;

export class RunState {
  taskId: string;
  lastSeq = -1;
  history: RunHistory;
  /** Pattern key → highest multiple of the threshold already reported. */
  reported: Map<string, number> | null = null;

  // Compaction guard: observations left to watch, and (tool, args, result) triples seen since arming.
  guardLeft = 0;
  guardWindow = 0;
  guardTriples: number[] = NO_TRIPLES;

  // Messages: sketch of the last assistant message, monologue and repetition chains.
  hasMessage = false;
  actionSinceMessage = false;
  monologueCount = 0;
  monologueStartSeq = 0;
  repetitionCount = 0;
  repetitionStartSeq = 0;

  /** Sketches in one block: the last assistant message, then per near-duplicate slot its args and result. */
  vectors: Uint8Array | null = null;
  /** Near-duplicate slot meta lives in the history buffer, after the records. */
  nearUsed = false;

  // Stagnation (steps and wall clock) and budget.
  actionsSinceProgress = 0;
  progressStartSeq = 0;
  lastProgressMs = Number.NaN;
  lastEventMs = Number.NaN;
  progressKey = '';
  timeReported = 0; // 1 = warning sent, 2 = critical sent for the current stall
  steps = 0;
  tokens = 0;
  costUsd = 0;
  budgetReported = 0; // bit per (metric, level)
  touched = 0;
  /** Tool name of the newest call (the history keeps hashes only): names the other side of a ping-pong. */
  lastTool = '';

  constructor(taskId: string, historySize: number, withVectors = false) {
    this.taskId = taskId;
    const capacity = Math.max(1, historySize | 0);
    const words = capacity * WORDS + NEAR_DUP_SLOTS * NEAR_META;
    // One buffer for the history and the sketches: every typed array costs ~150 bytes of bookkeeping.
    const buffer = new ArrayBuffer(words * 4 + (withVectors ? VECTORS_LENGTH : 0));
    this.history = new RunHistory(capacity, new Int32Array(buffer, 0, words), 0, 0, NEAR_DUP_SLOTS * NEAR_META);
    if (withVectors) this.vectors = new Uint8Array(buffer, words * 4, VECTORS_LENGTH);
  }

  ensureVectors(): Uint8Array {
    if (!this.vectors) this.vectors = new Uint8Array(VECTORS_LENGTH);
    return this.vectors;
  }

  ensureNearDup(): { vectors: Uint8Array; meta: Int32Array; base: number } {
    this.nearUsed = true;
    return { vectors: this.ensureVectors(), meta: this.history.data, base: this.history.extraOffset };
  }
}
