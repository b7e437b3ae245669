/**
 * The durable form of an agent's trails (the memory service's per-agent state, DESIGN §7), written after
 * every batch that touched the agent. Version 3 is binary and incremental: the operation log (up to
 * MAX_LOG entries, most of the document) is appended to, never rewritten, so each entry is encoded once,
 * when first written, and kept as bytes in a `TrailLogBytes` beside the trail; a write copies those bytes
 * and encodes only the small rest (position, anchors, conclusion, STATE…). An entry whose milestone is the
 * one of the entry before it says so in one byte instead of repeating the id (an agent logs many steps per
 * milestone: with the bench's 25-character ids that was 40% of a full document). Versions 2 (the same
 * without that) and 1 (one JSON document, re-stringified whole on every write) are still read: states
 * written by older builds are in the store.
 *
 * Layout of version 3 (numbers are LEB128 varints; `str` is a byte length then UTF-8; `str?` is 0 for
 * absent, else the length + 1; signed numbers are zigzag-encoded):
 *   'W' 'T' 0x03, tenantId str, agentId str, taskCount, then per task:
 *   taskId str, runId str?, lastSeq signed, position str? (JSON), anchors str? (JSON), conclusion str?,
 *   references (count, str…), lastFailure str?, checkpointed (count, str…), lastStateText str?,
 *   keptAliveAt (0 absent, else ms + 1), log (count, then per entry: seq signed, milestone, kind (index in
 *   LOG_KINDS), text str, conclusion str?). The milestone is 0 for none, 1 for the previous entry's (never
 *   on the first entry), else the id's byte length + 2 and its UTF-8. Version 2 writes it as `str?`.
 */
import type { Position } from '@wayfinder/contracts';
import type { AnchorProgress } from '@wayfinder/cognitive-map';
import type { AgentTrail } from './agent-trail';
import type { OperationLogEntry } from './context-assembly';

/** One agent's trails: taskId → trail, the newest task last. */
export interface AgentTrailsDocument {
  tenantId: string;
  agentId: string;
  tasks: Array<[string, AgentTrail]>;
}

const MAGIC_0 = 0x57; // 'W'
const MAGIC_1 = 0x54; // 'T'
const VERSION_2 = 2;
const VERSION_3 = 3;
/** An entry's milestone in version 3: none, the previous entry's, or (from this value on) the id's length + 2. */
const MILESTONE_NONE = 0;
const MILESTONE_SAME = 1;
const MILESTONE_ID = 2;
const LOG_KINDS: ReadonlyArray<OperationLogEntry['kind']> = ['action', 'observation', 'message', 'feedback', 'milestone', 'compaction', 'plan'];
const KIND_INDEX = new Map(LOG_KINDS.map((k, i) => [k, i]));

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A growable byte buffer with the writes the layout needs. */
class Writer {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 256) {
    this.bytes = new Uint8Array(capacity);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    // By half, not doubled: a TrailLogBytes keeps its buffer for as long as the agent is in memory.
    const capacity = Math.max(this.length + n, Math.ceil(this.bytes.length * 1.5));
    const grown = new Uint8Array(capacity);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.bytes[this.length++] = b;
  }

  /** Unsigned, up to 2^53 (arithmetic, not 32-bit bitwise: timestamps are larger). */
  uint(n: number): void {
    this.reserve(8);
    while (n >= 0x80) {
      this.bytes[this.length++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.bytes[this.length++] = n;
  }

  int(n: number): void {
    this.uint(n < 0 ? -2 * n - 1 : 2 * n);
  }

  /**
   * A string with its byte length first, encoded in place: the length field is sized for the worst case
   * (3 bytes per UTF-16 unit) and written padded (LEB128 allows continuation bytes carrying zeros).
   */
  str(s: string, offset = 0): void {
    const max = s.length * 3 + offset;
    const width = max < 0x80 ? 1 : max < 0x4000 ? 2 : max < 0x200000 ? 3 : 5;
    this.reserve(width + s.length * 3);
    const at = this.length;
    const { written } = encoder.encodeInto(s, this.bytes.subarray(at + width));
    let n = written + offset;
    for (let i = 0; i < width - 1; i++) {
      this.bytes[at + i] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.bytes[at + width - 1] = n;
    this.length = at + width + written;
  }

  optStr(s: string | undefined): void {
    if (s === undefined) this.byte(0);
    else this.str(s, 1);
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A copy of the bytes written, carved from a shared slab (see `copyOut`). */
  result(): Uint8Array {
    return copyOut(this.bytes.subarray(0, this.length));
  }
}

/**
 * Documents are copied out into views of one larger buffer, as Node pools small Buffers: a fresh
 * ArrayBuffer per document (a few KB, allocated outside the heap) cost more than encoding it. A slab is
 * freed once no document of it is referenced (they live until the store has written them).
 */
const SLAB_BYTES = 256 * 1024;
let slab = new Uint8Array(0);
let slabUsed = 0;

function copyOut(bytes: Uint8Array): Uint8Array {
  if (bytes.length > SLAB_BYTES / 4) return bytes.slice();
  if (slabUsed + bytes.length > slab.length) {
    slab = new Uint8Array(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + bytes.length);
  out.set(bytes);
  // 8-byte aligned, as Node's pool does.
  slabUsed += (bytes.length + 7) & ~7;
  return out;
}

/**
 * Where documents are encoded (encoding is synchronous, so one buffer serves every call; it grows to the
 * largest document and the result is a copy of the bytes written).
 */
const scratch = new Writer(16 * 1024);

class Reader {
  private at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.at >= this.bytes.length) throw new Error('memory trail state: truncated document');
    return this.bytes[this.at++];
  }

  uint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new Error('memory trail state: malformed number');
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  }

  private text(length: number): string {
    if (this.at + length > this.bytes.length) throw new Error('memory trail state: truncated document');
    const from = this.at;
    this.at += length;
    return decoder.decode(this.bytes.subarray(from, from + length));
  }

  str(): string {
    return this.text(this.uint());
  }

  optStr(): string | undefined {
    const n = this.uint();
    return n === 0 ? undefined : this.text(n - 1);
  }

  /** A version 3 entry's milestone, `previous` being the entry before it's (null: none, or the first entry). */
  milestone(previous: string | null): string | null {
    const n = this.uint();
    if (n === MILESTONE_NONE) return null;
    if (n !== MILESTONE_SAME) return this.text(n - MILESTONE_ID);
    if (previous === null) throw new Error('memory trail state: a log entry refers to a milestone before it that is not there');
    return previous;
  }

  get done(): boolean {
    return this.at === this.bytes.length;
  }
}

/** A version 3 entry; `previous`: the milestone of the entry written before it (null for the first). */
function writeEntry(w: Writer, e: OperationLogEntry, previous: string | null): void {
  w.int(e.seq);
  const milestoneId = e.milestoneId ?? null;
  if (milestoneId === null) w.byte(MILESTONE_NONE);
  else if (milestoneId === previous) w.byte(MILESTONE_SAME);
  else w.str(milestoneId, MILESTONE_ID);
  const kind = KIND_INDEX.get(e.kind);
  if (kind === undefined) throw new Error(`memory trail state: unknown log entry kind ${String(e.kind)}`);
  w.byte(kind);
  w.str(e.text);
  w.optStr(e.conclusion);
}

function readEntry(r: Reader, version: number, previous: string | null): OperationLogEntry {
  const seq = r.int();
  const milestoneId = version === VERSION_2 ? (r.optStr() ?? null) : r.milestone(previous);
  const kind = LOG_KINDS[r.byte()];
  if (kind === undefined) throw new Error('memory trail state: unknown log entry kind');
  const text = r.str();
  const conclusion = r.optStr();
  return { seq, milestoneId, kind, text, ...(conclusion !== undefined && { conclusion }) };
}

function readLog(r: Reader, version: number): OperationLogEntry[] {
  const log = new Array<OperationLogEntry>(r.uint());
  let previous: string | null = null;
  for (let i = 0; i < log.length; i++) {
    log[i] = readEntry(r, version, previous);
    previous = log[i].milestoneId;
  }
  return log;
}

/**
 * The encoded operation log of one trail, kept beside it and brought up to date before each write: the
 * log only grows at the end and loses entries at the front (appendLog), so the entries still cached are
 * re-used, new ones encoded once, and anything else (a log replaced wholesale) re-encoded from scratch.
 * An entry is encoded against the one before it (its milestone may be "the previous one's"); when the
 * front is dropped and the new first entry said so, each write encodes that one entry again with its
 * milestone written out, so the bytes always equal a fresh encoding of the log.
 */
export class TrailLogBytes {
  /** The entries encoded, in order (identity: entries are never changed once appended). */
  private entries: OperationLogEntry[] = [];
  /** Where each entry starts in `buffer`, and where the last one ends. */
  private starts: number[] = [0];
  private readonly buffer = new Writer(128);
  /** Whether the first entry's bytes in `buffer` refer to the milestone of an entry since dropped. */
  private firstRefersBack = false;

  /** Appends the encoded entries of `log` to `w`. */
  writeTo(w: Writer, log: readonly OperationLogEntry[]): void {
    this.sync(log);
    const end = this.starts[this.starts.length - 1];
    if (this.firstRefersBack) {
      writeEntry(w, this.entries[0], null);
      w.raw(this.buffer.bytes.subarray(this.starts[1], end));
    } else w.raw(this.buffer.bytes.subarray(this.starts[0], end));
  }

  private sync(log: readonly OperationLogEntry[]): void {
    const dropped = log.length === 0 ? -1 : this.entries.indexOf(log[0]);
    let kept = dropped < 0 ? 0 : this.entries.length - dropped;
    for (let i = 0; i < kept; i++) {
      if (log[i] !== this.entries[dropped + i]) {
        kept = 0;
        break;
      }
    }
    if (kept === 0) this.reset();
    else if (dropped > 0) {
      const first = this.entries[dropped];
      this.firstRefersBack = first.milestoneId !== null && this.entries[dropped - 1].milestoneId === first.milestoneId;
      this.entries.splice(0, dropped);
      this.starts.splice(0, dropped);
      this.compact();
    }
    for (let i = kept; i < log.length; i++) {
      writeEntry(this.buffer, log[i], i === 0 ? null : (log[i - 1].milestoneId ?? null));
      this.entries.push(log[i]);
      this.starts.push(this.buffer.length);
    }
  }

  private reset(): void {
    this.entries = [];
    this.starts = [0];
    this.buffer.length = 0;
    this.firstRefersBack = false;
  }

  /** Moves the live bytes to the front once the dropped ones are a quarter of the buffer (bounded slack). */
  private compact(): void {
    const from = this.starts[0];
    if (from === 0 || from * 4 < this.buffer.length) return;
    this.buffer.bytes.copyWithin(0, from, this.buffer.length);
    this.buffer.length -= from;
    for (let i = 0; i < this.starts.length; i++) this.starts[i] -= from;
  }
}

/**
 * Version 3 of an agent's trails. `logBytes(index)`: the kept encoding of the log of the task at `index`
 * of `doc.tasks`; without it each log is encoded here.
 */
export function encodeAgentTrails(doc: AgentTrailsDocument, logBytes?: (index: number) => TrailLogBytes): Uint8Array {
  const w = scratch;
  w.length = 0;
  w.byte(MAGIC_0);
  w.byte(MAGIC_1);
  w.byte(VERSION_3);
  w.str(doc.tenantId);
  w.str(doc.agentId);
  w.uint(doc.tasks.length);
  for (let i = 0; i < doc.tasks.length; i++) {
    const [taskId, t] = doc.tasks[i];
    w.str(taskId);
    w.optStr(t.runId);
    w.int(t.lastSeq);
    w.optStr(t.position === undefined ? undefined : JSON.stringify(t.position));
    w.optStr(t.anchors === undefined ? undefined : JSON.stringify(t.anchors));
    w.optStr(t.conclusion);
    w.uint(t.references.length);
    for (const r of t.references) w.str(r);
    w.optStr(t.lastFailure);
    w.uint(t.checkpointed.size);
    for (const c of t.checkpointed) w.str(c);
    w.optStr(t.lastStateText);
    w.uint(t.keptAliveAt === undefined ? 0 : t.keptAliveAt + 1);
    w.uint(t.log.length);
    if (logBytes) logBytes(i).writeTo(w, t.log);
    else for (let j = 0; j < t.log.length; j++) writeEntry(w, t.log[j], j === 0 ? null : (t.log[j - 1].milestoneId ?? null));
  }
  return w.result();
}

/** Reads version 3, and versions 2 and 1 (JSON) written by earlier builds; throws on anything else. */
export function decodeAgentTrails(bytes: Uint8Array): AgentTrailsDocument {
  if (bytes.length > 0 && bytes[0] === 0x7b) return decodeVersion1(bytes); // '{'
  if (bytes.length < 3 || bytes[0] !== MAGIC_0 || bytes[1] !== MAGIC_1) throw new Error('memory trail state: not a trail document');
  const version = bytes[2];
  if (version !== VERSION_3 && version !== VERSION_2) throw new Error(`memory trail state: unsupported document version ${version}`);
  const r = new Reader(bytes.subarray(3));
  const tenantId = r.str();
  const agentId = r.str();
  const count = r.uint();
  const tasks: Array<[string, AgentTrail]> = [];
  for (let i = 0; i < count; i++) {
    const taskId = r.str();
    const runId = r.optStr();
    const lastSeq = r.int();
    const position = r.optStr();
    const anchors = r.optStr();
    const conclusion = r.optStr();
    const references = Array.from({ length: r.uint() }, () => r.str());
    const lastFailure = r.optStr();
    const checkpointed = new Set(Array.from({ length: r.uint() }, () => r.str()));
    const lastStateText = r.optStr();
    const keptAlive = r.uint();
    const log = readLog(r, version);
    tasks.push([
      taskId,
      {
        runId,
        lastSeq,
        ...(position !== undefined && { position: JSON.parse(position) as Position }),
        ...(anchors !== undefined && { anchors: JSON.parse(anchors) as AnchorProgress }),
        ...(conclusion !== undefined && { conclusion }),
        references,
        ...(lastFailure !== undefined && { lastFailure }),
        checkpointed,
        ...(lastStateText !== undefined && { lastStateText }),
        ...(keptAlive > 0 && { keptAliveAt: keptAlive - 1 }),
        log,
      },
    ]);
  }
  if (!r.done) throw new Error('memory trail state: trailing bytes after the document');
  return { tenantId, agentId, tasks };
}

type TrailDocV1 = Omit<AgentTrail, 'checkpointed'> & { checkpointed: string[] };

/** Version 1, as earlier builds wrote it: kept for the baseline of the benchmark and the decoding tests. */
export function encodeAgentTrailsV1(doc: AgentTrailsDocument): Uint8Array {
  const json = { v: 1, tenantId: doc.tenantId, agentId: doc.agentId, tasks: doc.tasks.map(([taskId, { rendered: _, ...t }]) => [taskId, { ...t, checkpointed: [...t.checkpointed] }]) };
  return encoder.encode(JSON.stringify(json));
}

function decodeVersion1(bytes: Uint8Array): AgentTrailsDocument {
  const doc = JSON.parse(decoder.decode(bytes)) as { v: number; tenantId: string; agentId: string; tasks: Array<[string, TrailDocV1]> };
  if (doc?.v !== 1 || !Array.isArray(doc.tasks)) throw new Error(`memory trail state: unsupported document version ${String(doc?.v)}`);
  return { tenantId: doc.tenantId, agentId: doc.agentId, tasks: doc.tasks.map(([taskId, t]) => [taskId, { ...t, checkpointed: new Set(t.checkpointed) }]) };
}
