/**
 * Serialization of an agent's detector state for Redis (DESIGN §7), written after every batch for every
 * touched agent, so it must cost microseconds. Version 2 is binary, little-endian (bytes.ts): a run's
 * Int32Array (history, near-duplicate meta, counters, sketches) is copied whole, the few fields outside it
 * follow, strings are length-prefixed UTF-8, and a checksum ends the document so a cut or corrupted one is
 * refused rather than restored as garbage. Version 1 (a JSON document, still in Redis after an upgrade)
 * is decoded; it is never written.
 *
 * v2 layout: u8 version, u8 recent head, u8 runs, u8 extras, 8 × i32 recent event hashes; per run (least
 * recently used first): key, taskId, progressKey, lastTool, u32 capacity, u32 size, u32 head, u8 flags,
 * [f64 lastProgressMs], f64 tokens, f64 costUsd, u32 n + n × (key, f64 multiple) reported, u32 n + n × f64
 * guard triples, u32 words + the run's data, [v3: u8 flags (1 = words) + [milestone, u8 tools + per
 * tool: i32 tool, args, u8 has previous + [previous], u8 has error + [error]] (RunState.words)]; per extra
 * detector: name, u8 kind (bytes | JSON), u32 n + n
 * bytes; u32 checksum of everything before it. A change to the run buffer's layout must bump the version
 * (v4: a fifth flag bit in each call record, RecordFlag.MaskedArgs, taken from the callId's bits).
 */
import { AgentState, RECENT_EVENTS } from './agent-state';
import { ByteReader, ByteWriter, CorruptStateError, checksum } from './bytes';
import { MORE_WORDS, RunState } from './run-state';
import { RecordFlag } from './run-history';
import { EvidenceMemory, type ToolWords } from '../evidence/evidence-memory';
import { setSketchByte } from './sketch';

const VERSION = 4;
/** v3 is v4 with 4 flag bits per call record where v4 has 5 (RecordFlag.MaskedArgs; read, never written). */
const V3 = 3;
/** v2 is v3 without the project detectors' counters (read, never written). */
const V2 = 2;
const V1 = 1;
/** The first byte of a v1 document: `{`. */
const JSON_DOCUMENT = 0x7b;
const WHAT = 'detector state';
const HEADER_BYTES = 4 + RECENT_EVENTS * 4;
const CHECKSUM_BYTES = 4;
/** Far above any policy's history size: a larger capacity is corruption, not a run to allocate. */
const MAX_CAPACITY = 1 << 16;

const enum RunFlag {
  Vectors = 1,
  ProgressTime = 2,
  /** The run handed in its answer (RunState.handedIn); a reader that predates it ignores the bit. */
  HandedIn = 4,
}

const enum ExtraKind {
  Bytes = 0,
  Json = 1,
}

// Shared by every document (encoding is synchronous; see ByteWriter).
const writer = new ByteWriter();

/**
 * Encodes the agent and the extra detectors' states (by detector name). A Uint8Array state is stored as
 * is; anything else as JSON.
 */
export function encodeAgentState(agent: AgentState, extra: Record<string, unknown>): Uint8Array {
  const w = writer;
  w.reset();
  const names = Object.keys(extra);
  const runs = (agent.olderKeys?.length ?? 0) + (agent.current ? 1 : 0);
  w.u8(VERSION);
  w.u8(agent.recentHead);
  w.u8(runs);
  w.u8(names.length);
  for (const hash of agent.recentEvents) w.i32(hash);
  for (const [key, r] of agent.runs()) {
    w.string(key);
    w.string(r.taskId);
    w.string(r.progressKey);
    w.string(r.lastTool);
    w.u32(r.capacity);
    w.u32(r.size);
    w.u32(r.head);
    const progressTime = r.lastProgressMs !== null;
    w.u8((r.hasVectors ? RunFlag.Vectors : 0) | (progressTime ? RunFlag.ProgressTime : 0) | (r.handedIn ? RunFlag.HandedIn : 0));
    if (progressTime) w.f64(r.lastProgressMs as number);
    w.f64(r.tokens);
    w.f64(r.costUsd);
    const reported = r.reported;
    w.u32(reported ? reported.size : 0);
    if (reported) {
      for (const [k, multiple] of reported) {
        w.string(k);
        w.f64(multiple);
      }
    }
    w.u32(r.guardTriples.length);
    for (const value of r.guardTriples) w.f64(value);
    w.u32(r.data.length);
    w.words(r.data, r.data.length);
    encodeWords(r.words);
  }
  for (const name of names) {
    const state = extra[name];
    w.string(name);
    if (state instanceof Uint8Array) {
      w.u8(ExtraKind.Bytes);
      w.u32(state.length);
      w.raw(state);
    } else {
      w.u8(ExtraKind.Json);
      w.string(JSON.stringify(state ?? null));
    }
  }
  w.u32(w.checksum());
  return w.finish();
}

/**
 * Decodes either version. Extra states come back as written: a Uint8Array (a view of `bytes`, to be read
 * before `bytes` is reused) or the JSON value; v1 documents hold JSON only.
 */
export function decodeAgentState(tenantId: string, agentId: string, bytes: Uint8Array): { agent: AgentState; extra: Record<string, unknown> } {
  if (bytes.length === 0) throw new CorruptStateError(`empty ${WHAT}`);
  if (bytes[0] === JSON_DOCUMENT) return decodeV1(tenantId, agentId, bytes);
  if (bytes[0] !== VERSION && bytes[0] !== V3 && bytes[0] !== V2) throw new Error(`unsupported ${WHAT} version ${bytes[0]}`);
  return decodeV2(tenantId, agentId, bytes, bytes[0]);
}

function decodeV2(tenantId: string, agentId: string, bytes: Uint8Array, version: number): { agent: AgentState; extra: Record<string, unknown> } {
  const withMore = version >= V3;
  if (bytes.length < HEADER_BYTES + CHECKSUM_BYTES) throw new CorruptStateError(`truncated ${WHAT}: ${bytes.length} bytes`);
  const body = bytes.length - CHECKSUM_BYTES;
  const stored = (bytes[body] | (bytes[body + 1] << 8) | (bytes[body + 2] << 16) | (bytes[body + 3] << 24)) >>> 0;
  if (checksum(bytes, body) !== stored) throw new CorruptStateError(`corrupt or truncated ${WHAT}: checksum mismatch`);
  const r = new ByteReader(bytes, WHAT, 1, body);
  const agent = new AgentState(tenantId, agentId);
  const recentHead = r.u8();
  const runs = r.u8();
  const extras = r.u8();
  if (recentHead >= RECENT_EVENTS) r.fail(`recent event head ${recentHead}`);
  const recent: number[] = [];
  for (let i = 0; i < RECENT_EVENTS; i++) recent.push(r.i32());
  agent.recentEvents = recent;
  agent.recentHead = recentHead;
  for (let i = 0; i < runs; i++) {
    const key = r.string();
    const taskId = r.string();
    const progressKey = r.string();
    const lastTool = r.string();
    const capacity = r.u32();
    const size = r.u32();
    const head = r.u32();
    const flags = r.u8();
    if (capacity < 1 || capacity > MAX_CAPACITY || size > capacity || head >= capacity) r.fail(`run history ${size}/${capacity} at ${head}`);
    const run = new RunState(taskId, capacity, (flags & RunFlag.Vectors) !== 0);
    run.size = size;
    run.head = head;
    run.progressKey = progressKey;
    run.lastTool = lastTool;
    run.handedIn = (flags & RunFlag.HandedIn) !== 0;
    run.lastProgressMs = (flags & RunFlag.ProgressTime) !== 0 ? r.f64() : null;
    run.tokens = r.f64();
    run.costUsd = r.f64();
    const reported = r.u32();
    if (reported > 0) {
      run.reported = new Map();
      for (let k = 0; k < reported; k++) run.reported.set(r.string(), r.f64());
    }
    const triples = r.u32();
    if (triples > r.remaining / 8) r.fail(`${triples} guard values`);
    if (triples > 0) {
      run.guardTriples = [];
      for (let k = 0; k < triples; k++) run.guardTriples.push(r.f64());
    }
    const words = r.u32();
    if (withMore) {
      if (words !== run.data.length) r.fail(`run buffer of ${words} words where this build lays out ${run.data.length}`);
      r.wordsInto(run.data);
      run.words = decodeWords(r);
    } else {
      // v2: the same buffer without the project's counters; widened, those counters start at zero.
      if (words !== run.data.length - MORE_WORDS) r.fail(`v2 run buffer of ${words} words where this build lays out ${run.data.length - MORE_WORDS}`);
      const v2 = new Int32Array(words);
      r.wordsInto(v2);
      const split = run.v2CounterEnd;
      run.data.set(v2.subarray(0, split), 0);
      run.data.set(v2.subarray(split), split + MORE_WORDS);
    }
    // Before v4 the MaskedArgs bit was the callId's: no record of those documents is a masked poll.
    if (version < VERSION) run.history.clearFlag(RecordFlag.MaskedArgs);
    agent.add(key, run);
  }
  const extra: Record<string, unknown> = {};
  for (let i = 0; i < extras; i++) {
    const name = r.string();
    const kind = r.u8();
    if (kind === ExtraKind.Bytes) extra[name] = r.view8(r.u32());
    else if (kind === ExtraKind.Json) extra[name] = parseJson(r, r.string());
    else r.fail(`extra state kind ${kind}`);
  }
  r.expectEnd();
  return { agent, extra };
}

function encodeWords(words: EvidenceMemory | null): void {
  const w = writer;
  w.u8(words ? 1 : 0);
  if (!words) return;
  w.string(words.milestone ?? '');
  const tools = words.tools;
  w.u8(tools.length);
  for (const t of tools) {
    w.i32(t.tool);
    w.string(t.args);
    w.u8(t.previousArgs === null ? 0 : 1);
    if (t.previousArgs !== null) w.string(t.previousArgs);
    w.u8(t.error === null ? 0 : 1);
    if (t.error !== null) w.string(t.error);
  }
}

/** Far above what EvidenceMemory keeps: more is corruption. */
const MAX_WORD_TOOLS = 16;

function decodeWords(r: ByteReader): EvidenceMemory | null {
  const flags = r.u8();
  if (flags === 0) return null;
  if (flags !== 1) r.fail(`evidence words flag ${flags}`);
  const words = new EvidenceMemory();
  const milestone = r.string();
  words.milestone = milestone.length > 0 ? milestone : null;
  const count = r.u8();
  if (count > MAX_WORD_TOOLS) r.fail(`${count} evidence tools`);
  const tools: ToolWords[] = [];
  for (let i = 0; i < count; i++) {
    const tool = r.i32();
    const args = r.string();
    const previousArgs = r.u8() === 1 ? r.string() : null;
    const error = r.u8() === 1 ? r.string() : null;
    tools.push({ tool, args, previousArgs, error });
  }
  words.tools = tools;
  return words;
}

function parseJson(r: ByteReader, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return r.fail('invalid JSON extra state');
  }
}

interface EncodedRunV1 {
  k: string;
  taskId: string;
  lastSeq: number;
  cap: number;
  size: number;
  head: number;
  data: number[];
  reported: [string, number][];
  guard: [number, number, number[]];
  msg: boolean;
  vectors: number[] | null;
  mono: [number, number, number, number, number];
  near: boolean;
  stag: [number, number, number | null, number, string, number | null];
  budget: [number, number, number, number];
  touched: number;
  lastTool?: string;
}

function decodeV1(tenantId: string, agentId: string, bytes: Uint8Array): { agent: AgentState; extra: Record<string, unknown> } {
  const doc = JSON.parse(new TextDecoder().decode(bytes)) as {
    v: number;
    events: number[];
    head: number;
    runs: EncodedRunV1[];
    extra?: Record<string, unknown>;
  };
  if (doc.v !== V1) throw new Error(`unsupported ${WHAT} version ${doc.v}`);
  const agent = new AgentState(tenantId, agentId);
  agent.recentEvents = doc.events.slice(0, RECENT_EVENTS);
  agent.recentHead = doc.head;
  for (const e of doc.runs) {
    const r = new RunState(e.taskId, e.cap, e.vectors !== null);
    r.lastSeq = e.lastSeq;
    // A layout that does not fit (another build's sizes) starts the history empty rather than misread.
    if (e.data.length === r.recordsAndMetaWords) {
      r.data.set(e.data);
      r.size = Math.min(e.size, r.capacity);
      r.head = e.head % r.capacity;
    }
    if (e.vectors) for (let i = 0; i < Math.min(e.vectors.length, r.data.length * 4 - r.vectorsOffset * 4); i++) setSketchByte(r.data, r.vectorsOffset, i, e.vectors[i]);
    r.reported = e.reported.length > 0 ? new Map(e.reported) : null;
    [r.guardLeft, r.guardWindow] = e.guard;
    if (e.guard[2].length > 0) r.guardTriples = e.guard[2];
    r.hasMessage = e.msg;
    r.actionSinceMessage = e.mono[0] === 1;
    [, r.monologueCount, r.monologueStartSeq, r.repetitionCount, r.repetitionStartSeq] = e.mono;
    r.nearUsed = e.near;
    r.actionsSinceProgress = e.stag[0];
    r.progressStartSeq = e.stag[1];
    r.lastProgressMs = e.stag[2] ?? null;
    r.timeReported = e.stag[3];
    r.progressKey = e.stag[4];
    [r.steps, r.tokens, r.costUsd, r.budgetReported] = e.budget;
    r.touched = e.touched;
    r.lastTool = e.lastTool ?? '';
    agent.add(e.k, r);
  }
  return { agent, extra: doc.extra ?? {} };
}
