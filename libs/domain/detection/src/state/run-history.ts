/**
 * The call history of one (tenant, agent, run) in compact form (DESIGN §7): a ring of the last
 * `historySize` call records in a single Int32Array, 6 words per record, oldest evicted first. The run state
 * extends it, so a run costs one object and one typed array. The ring starts small and doubles as the run
 * makes calls, up to the policy's size (`grow`): a run of a few calls does not pay for thirty records.
 */
export const enum RecordFlag {
  Outcome = 1,
  Error = 2,
  UnknownTool = 4,
  Poll = 8,
  /**
   * A poll recorded with its volatile ids masked (P11) whose args differed before masking: the same poll
   * for the poll rows, but no call of a sequence for ping_pong and cycle_repeat, which compare exact args
   * (a poll renewing its id each time never repeated as a call; its rows judge it).
   */
  MaskedArgs = 16,
}

// Word offsets inside a record.
const TOOL = 0;
const ARGS = 1;
const RESULT = 2;
const ERROR = 3;
const SEQ = 4;
// The callId hash and the flags share a word: 27 bits of callId are plenty within one window.
const CALL_FLAGS = 5;
/** The flag bits of a record's callId-and-flags word (state codec v4; v3 had 4 and 28 bits of callId). */
export const FLAG_BITS = 31;
export const WORDS = 6;

export class RunHistory {
  /** Records the ring holds now (grows up to the policy's history size, never shrinks). */
  capacity: number;
  /** The records, then words lent to other detectors (see extraOffset); may be replaced by a larger copy. */
  data: Int32Array;
  /** Number of records held (≤ capacity). */
  size = 0;
  /** Ring index of the next write. */
  head = 0;

  /** Words after the records, lent to other detectors (near-duplicate slots, sketches) to keep one buffer per run. */
  extraOffset: number;

  constructor(capacity: number, extraWords = 0) {
    this.capacity = Math.max(1, capacity | 0);
    this.extraOffset = this.capacity * WORDS;
    this.data = new Int32Array(this.extraOffset + extraWords);
  }

  /**
   * Makes room for `capacity` records, the words after the records kept as they are. The records move to
   * slots 0..size-1, oldest first: `slot(i)` names the same records as before.
   */
  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    const old = this.data;
    const data = new Int32Array(capacity * WORDS + (old.length - this.extraOffset));
    for (let i = 0; i < this.size; i++) {
      const from = this.slot(this.size - 1 - i) * WORDS;
      for (let w = 0; w < WORDS; w++) data[i * WORDS + w] = old[from + w];
    }
    data.set(old.subarray(this.extraOffset), capacity * WORDS);
    this.data = data;
    this.head = this.size % capacity;
    this.capacity = capacity;
    this.extraOffset = capacity * WORDS;
  }

  /** Ring slot of the i-th newest record (0 = newest). */
  slot(i: number): number {
    return (this.head - 1 - i + this.capacity * 2) % this.capacity;
  }

  push(tool: number, args: number, seq: number, call: number, flags: number): number {
    const slot = this.head;
    const o = slot * WORDS;
    const d = this.data;
    d[o + TOOL] = tool;
    d[o + ARGS] = args;
    d[o + RESULT] = 0;
    d[o + ERROR] = 0;
    d[o + SEQ] = seq;
    d[o + CALL_FLAGS] = (call & ~FLAG_BITS) | (flags & FLAG_BITS);
    this.head = (this.head + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
    return slot;
  }

  /** The slot an observation belongs to: same callId, else the newest pending record of the same tool. */
  findForObservation(tool: number, call: number): number {
    const d = this.data;
    if (call !== 0) {
      for (let i = 0; i < this.size; i++) {
        const s = this.slot(i);
        if ((d[s * WORDS + CALL_FLAGS] & ~FLAG_BITS) === (call & ~FLAG_BITS)) return s;
      }
      return -1;
    }
    for (let i = 0; i < this.size; i++) {
      const s = this.slot(i);
      const o = s * WORDS;
      if (d[o + TOOL] === tool && (d[o + CALL_FLAGS] & RecordFlag.Outcome) === 0) return s;
    }
    return -1;
  }

  setOutcome(slot: number, result: number, error: number, flags: number): void {
    const o = slot * WORDS;
    this.data[o + RESULT] = result;
    this.data[o + ERROR] = error;
    const word = this.data[o + CALL_FLAGS];
    this.data[o + CALL_FLAGS] = (word & ~FLAG_BITS) | (word & (RecordFlag.Poll | RecordFlag.MaskedArgs)) | RecordFlag.Outcome | (flags & FLAG_BITS);
  }

  tool(slot: number): number {
    return this.data[slot * WORDS + TOOL];
  }
  args(slot: number): number {
    return this.data[slot * WORDS + ARGS];
  }
  result(slot: number): number {
    return this.data[slot * WORDS + RESULT];
  }
  error(slot: number): number {
    return this.data[slot * WORDS + ERROR];
  }
  seq(slot: number): number {
    return this.data[slot * WORDS + SEQ];
  }
  flags(slot: number): number {
    return this.data[slot * WORDS + CALL_FLAGS] & FLAG_BITS;
  }
  /** A poll whose args were masked (RecordFlag.MaskedArgs): it repeats no call in a sequence. */
  masked(slot: number): boolean {
    return (this.data[slot * WORDS + CALL_FLAGS] & RecordFlag.MaskedArgs) !== 0;
  }

  /**
   * Clears a flag bit in every record: restoring a document written when that bit still belonged to the
   * callId (see FLAG_BITS), so that no record reads as flagged by chance.
   */
  clearFlag(flag: RecordFlag): void {
    for (let slot = 0; slot < this.capacity; slot++) this.data[slot * WORDS + CALL_FLAGS] &= ~flag;
  }
}
