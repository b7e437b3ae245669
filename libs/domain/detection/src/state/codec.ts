/**
 * Serialization of an agent's detector state for Redis (DESIGN §7): a versioned JSON document encoded as
 * UTF-8 bytes. Typed arrays travel as number arrays; TextEncoder keeps this portable (no Buffer). `data` is
 * the history records and near-duplicate meta, `vectors` the sketches as bytes (see sketch.ts).
 */
import { AgentState } from './agent-state';
import { RunState } from './run-state';
import { setSketchByte, sketchByte } from './sketch';

const VERSION = 1;
/** The last slot of `stag` once held a last-event time nothing read; kept empty so v1 documents stay valid. */
const NO_EVENT_MS = null as unknown as number;

interface EncodedRun {
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
  stag: [number, number, number, number, string, number];
  budget: [number, number, number, number];
  touched: number;
  lastTool?: string;
}

export function encodeAgentState(agent: AgentState, extra: Record<string, unknown>): Uint8Array {
  const runs: EncodedRun[] = [];
  for (const [k, r] of agent.runs()) {
    runs.push({
      k,
      taskId: r.taskId,
      lastSeq: r.lastSeq,
      cap: r.capacity,
      size: r.size,
      head: r.head,
      data: Array.from(r.data.subarray(0, r.recordsAndMetaWords)),
      reported: r.reported ? [...r.reported] : [],
      guard: [r.guardLeft, r.guardWindow, r.guardTriples],
      msg: r.hasMessage,
      vectors: r.hasVectors ? sketchBytes(r) : null,
      mono: [r.actionSinceMessage ? 1 : 0, r.monologueCount, r.monologueStartSeq, r.repetitionCount, r.repetitionStartSeq],
      near: r.nearUsed,
      stag: [r.actionsSinceProgress, r.progressStartSeq, numberOrNull(r.lastProgressMs), r.timeReported, r.progressKey, NO_EVENT_MS],
      budget: [r.steps, r.tokens, r.costUsd, r.budgetReported],
      touched: r.touched,
      lastTool: r.lastTool,
    });
  }
  const doc = { v: VERSION, events: [...agent.recentEvents], head: agent.recentHead, runs, extra };
  return new TextEncoder().encode(JSON.stringify(doc));
}

export function decodeAgentState(tenantId: string, agentId: string, bytes: Uint8Array): { agent: AgentState; extra: Record<string, unknown> } {
  const doc = JSON.parse(new TextDecoder().decode(bytes)) as {
    v: number;
    events: number[];
    head: number;
    runs: EncodedRun[];
    extra?: Record<string, unknown>;
  };
  if (doc.v !== VERSION) throw new Error(`unsupported detector state version ${doc.v}`);
  const agent = new AgentState(tenantId, agentId);
  agent.recentEvents = doc.events.slice(0, 8);
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

function numberOrNull(value: number | null): number {
  return value !== null && Number.isFinite(value) ? value : (null as unknown as number);
}

function sketchBytes(r: RunState): number[] {
  const bytes: number[] = [];
  const length = (r.data.length - r.vectorsOffset) * 4;
  for (let i = 0; i < length; i++) bytes.push(sketchByte(r.data, r.vectorsOffset, i));
  return bytes;
}
