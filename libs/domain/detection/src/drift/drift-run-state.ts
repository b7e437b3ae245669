/**
 * Per-run state of the drift detector: the reference texts' vectors, the two relevance curves
 * (exponential moving averages of cosine) and their below-threshold streaks. Small and serializable:
 * the references are kept as int8 (a quarter of their float bytes, DESIGN §7 memory budget), the form
 * they are persisted in, so a restored run compares exactly as the one it was saved from.
 */

/**
 * A reference vector: one int8 per dimension, held as a one-byte string whose char codes are the bytes
 * (two's complement). References never change once made (a new text makes a new one), so an immutable
 * string serves, and it costs its bytes plus a 16-byte header where an Int8Array costs two objects and an
 * off-heap store (~190 bytes more per vector; two per run). Read with `int8At`.
 */
export type Int8Vector = string;

/** Dimension `i` of a reference, -128..127. */
export function int8At(v: Int8Vector, i: number): number {
  return (v.charCodeAt(i) << 24) >> 24;
}

const CHUNK = 8192;

/** A reference from its bytes (int8 or their uint8 view: the same bits). */
export function int8Vector(bytes: Int8Array | Uint8Array): Int8Vector {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  // One call makes a flat string; past a few thousand dimensions in chunks (the codes travel as arguments).
  if (u8.length <= CHUNK) return String.fromCharCode.apply(null, u8 as unknown as number[]);
  const parts: string[] = [];
  for (let i = 0; i < u8.length; i += CHUNK) parts.push(String.fromCharCode.apply(null, u8.subarray(i, i + CHUNK) as unknown as number[]));
  return parts.join('');
}

export interface CurveState {
  /** EMA of cosine similarity of scored steps to the reference; undefined before the first scored step. */
  ema?: number;
  /** Consecutive scored steps with the EMA below the threshold. */
  low: number;
  /** Seq of the first step of the current low streak. */
  lowSince: number;
  /** Highest level already emitted for the current low streak (0 none, 1 warning, 2 critical). */
  emitted: 0 | 1 | 2;
}

export interface DriftRunState {
  goal?: { vector: Int8Vector; source: 'map' | 'user' | 'assistant' | 'plan'; seq: number };
  /** The run's latest own plan (numbered list or `plan` step): the milestone reference without a map. */
  plan?: { vector: Int8Vector; items: number; callsForLookup: boolean; seq: number };
  /** Map milestone whose vector is cached in `milestoneVector`. */
  milestoneId?: string;
  milestoneVector?: Int8Vector;
  /** Non-terminal actions in the run so far. */
  work: number;
  /** Scored steps so far (the curves are quiet during warm-up). */
  scored: number;
  goalCurve: CurveState;
  milestoneCurve: CurveState;
  planSkipFired: boolean;
  /** A code step of the run whose output has not come back and that has called no tool yet. */
  codePending: boolean;
}

// Every field present from the start: V8 then keeps them in the object, not in a separate property array.
export const newCurve = (): CurveState => ({ ema: undefined, low: 0, lowSince: 0, emitted: 0 });

export function newRunState(): DriftRunState {
  return { goal: undefined, plan: undefined, milestoneId: undefined, milestoneVector: undefined, work: 0, scored: 0, goalCurve: newCurve(), milestoneCurve: newCurve(), planSkipFired: false, codePending: false };
}
