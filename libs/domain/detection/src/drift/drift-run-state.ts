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
/** References kept for sharing (least recently made or met out): ~300 bytes each at 256 dimensions. */
export const SHARED_REFERENCES = 2048;
/** Recent references by their bytes: a run whose reference has the same bytes as one of these shares it. */
const shared = new Map<string, Int8Vector>();

/**
 * A reference from its bytes (int8 or their uint8 view: the same bits). Equal bytes give one shared
 * string while it is among the `SHARED_REFERENCES` most recent: the runs of agents given the same goal or
 * plan text (one task, many agents) hold one copy instead of one each. Sharing is by content, so every
 * cosine is what it was (the same bytes are read); the strings are immutable, so no run can change
 * another's. The cache is bounded and keeps nothing a run does not also hold, but for its last
 * `SHARED_REFERENCES` references.
 */
export function int8Vector(bytes: Int8Array | Uint8Array): Int8Vector {
  const made = int8String(bytes);
  const known = shared.get(made);
  if (known !== undefined) {
    // Most recently met last: a task's reference stays while its agents keep coming.
    shared.delete(made);
    shared.set(known, known);
    return known;
  }
  shared.set(made, made);
  if (shared.size > SHARED_REFERENCES) shared.delete(shared.keys().next().value as string);
  return made;
}

/** References in the sharing cache (for tests). */
export function sharedReferenceCount(): number {
  return shared.size;
}

function int8String(bytes: Int8Array | Uint8Array): Int8Vector {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  // One call makes a flat string; past a few thousand dimensions in chunks (the codes travel as arguments).
  if (u8.length <= CHUNK) return String.fromCharCode.apply(null, u8 as unknown as number[]);
  const parts: string[] = [];
  for (let i = 0; i < u8.length; i += CHUNK) parts.push(String.fromCharCode.apply(null, u8.subarray(i, i + CHUNK) as unknown as number[]));
  return parts.join('');
}

/** A relevance curve as the detector reads it: a view of one curve's fields of a run (see `curveOf`). */
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

export type GoalSource = 'map' | 'user' | 'assistant' | 'plan';
export type CurveName = 'goal' | 'milestone';

/**
 * One run's state in one object (DESIGN §7 memory budget, issue #14): the goal and plan references and
 * the two curves are fields here, not objects of their own (each of those cost a header and its fields'
 * pointers, ~250 bytes per run in all), and the goal's source, the curves' levels and the run's booleans
 * share one small-integer field (`bits`, read through accessors: 8 bytes where six fields took 48).
 * Every field is set in the constructor, so V8 keeps them in the object. A goal exists when `goalVector`
 * does, a plan when `planVector` does.
 */
export class DriftRunState {
  /** The run's id, kept by AgentRuns (its RunKey: no wrapper per agent). */
  runId = '';
  goalVector: Int8Vector | undefined = undefined;
  goalSeq = 0;
  /** The run's latest own plan (numbered list or `plan` step): the milestone reference without a map. */
  planVector: Int8Vector | undefined = undefined;
  planItems = 0;
  planSeq = 0;
  /** Map milestone whose vector is cached in `milestoneVector`. */
  milestoneId: string | undefined = undefined;
  milestoneVector: Int8Vector | undefined = undefined;
  /** Non-terminal actions in the run so far. */
  work = 0;
  /** Scored steps so far (the curves are quiet during warm-up). */
  scored = 0;
  goalEma: number | undefined = undefined;
  goalLow = 0;
  goalLowSince = 0;
  milestoneEma: number | undefined = undefined;
  milestoneLow = 0;
  milestoneLowSince = 0;
  /** Goal source index (2 bits), goal and milestone levels (2 bits each), then the three booleans. */
  private bits = 0;

  get goalSource(): GoalSource {
    return GOAL_SOURCES[this.bits & 3];
  }
  set goalSource(source: GoalSource) {
    this.bits = (this.bits & ~3) | GOAL_SOURCES.indexOf(source);
  }
  /** Highest level already emitted for the goal curve's current low streak (0 none, 1 warning, 2 critical). */
  get goalEmitted(): 0 | 1 | 2 {
    return ((this.bits >> 2) & 3) as 0 | 1 | 2;
  }
  set goalEmitted(level: 0 | 1 | 2) {
    this.bits = (this.bits & ~(3 << 2)) | (level << 2);
  }
  get milestoneEmitted(): 0 | 1 | 2 {
    return ((this.bits >> 4) & 3) as 0 | 1 | 2;
  }
  set milestoneEmitted(level: 0 | 1 | 2) {
    this.bits = (this.bits & ~(3 << 4)) | (level << 4);
  }
  get planCallsForLookup(): boolean {
    return (this.bits & PLAN_CALLS_FOR_LOOKUP) !== 0;
  }
  set planCallsForLookup(on: boolean) {
    this.bits = on ? this.bits | PLAN_CALLS_FOR_LOOKUP : this.bits & ~PLAN_CALLS_FOR_LOOKUP;
  }
  get planSkipFired(): boolean {
    return (this.bits & PLAN_SKIP_FIRED) !== 0;
  }
  set planSkipFired(on: boolean) {
    this.bits = on ? this.bits | PLAN_SKIP_FIRED : this.bits & ~PLAN_SKIP_FIRED;
  }
  /** A code step of the run whose output has not come back and that has called no tool yet. */
  get codePending(): boolean {
    return (this.bits & CODE_PENDING) !== 0;
  }
  set codePending(on: boolean) {
    this.bits = on ? this.bits | CODE_PENDING : this.bits & ~CODE_PENDING;
  }
}

/** Goal sources by their index (in `bits`, and in the encoded state). */
export const GOAL_SOURCES: readonly GoalSource[] = ['map', 'user', 'assistant', 'plan'];
const PLAN_CALLS_FOR_LOOKUP = 1 << 6;
const PLAN_SKIP_FIRED = 1 << 7;
const CODE_PENDING = 1 << 8;

export function newRunState(): DriftRunState {
  return new DriftRunState();
}

/** A copy of one curve's fields (short-lived: write it back with `setCurve`). */
export function curveOf(s: DriftRunState, curve: CurveName): CurveState {
  return curve === 'goal'
    ? { ema: s.goalEma, low: s.goalLow, lowSince: s.goalLowSince, emitted: s.goalEmitted }
    : { ema: s.milestoneEma, low: s.milestoneLow, lowSince: s.milestoneLowSince, emitted: s.milestoneEmitted };
}

export function setCurve(s: DriftRunState, curve: CurveName, c: CurveState): void {
  if (curve === 'goal') {
    s.goalEma = c.ema;
    s.goalLow = c.low;
    s.goalLowSince = c.lowSince;
    s.goalEmitted = c.emitted;
  } else {
    s.milestoneEma = c.ema;
    s.milestoneLow = c.low;
    s.milestoneLowSince = c.lowSince;
    s.milestoneEmitted = c.emitted;
  }
}

/** The curve starts over (a new reference). */
export function resetCurve(s: DriftRunState, curve: CurveName): void {
  setCurve(s, curve, { ema: undefined, low: 0, lowSince: 0, emitted: 0 });
}
