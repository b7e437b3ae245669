/**
 * Serialization of an agent's detector state for Redis (DESIGN §7): a versioned JSON document encoded as
 * UTF-8 bytes. Typed arrays travel as number arrays; TextEncoder keeps this portable (no Buffer).
 */
import { AgentState } from './agent-state';
import { RunHistory, WORDS } from './run-history';
import { RunState } from './run-state';

const VERSION = 1;

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
      cap: r.history.capacity,
      size: r.history.size,
      head: r.history.head,
      data: Array.from(r.history.data),
      reported: r.reported ? [...r.reported] : [],
      guard: [r.guardLeft, r.guardWindow, r.guardTriples],
      msg: r.hasMessage,
      vectors: r.vectors ? Array.from(r.vectors) : null,
      mono: [r.actionSinceMessage ? 1 : 0, r.monologueCount, r.monologueStartSeq, r.repetitionCount, r.repetitionStartSeq],
      near: r.nearUsed,
      stag: [r.actionsSinceProgress, r.progressStartSeq, numberOrNull(r.lastProgressMs), r.timeReported, r.progressKey, numberOrNull(r.lastEventMs)],
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
  agent.runKeys = [];
  agent.runStates = [];
  for (const e of doc.runs) {
    const r = new RunState(e.taskId, e.cap);
    r.lastSeq = e.lastSeq;
    r.history = new RunHistory(e.cap, Int32Array.from(e.data), e.size, e.head, e.data.length - e.cap * WORDS);
    r.reported = e.reported.length > 0 ? new Map(e.reported) : null;
    [r.guardLeft, r.guardWindow] = e.guard;
    if (e.guard[2].length > 0) r.guardTriples = e.guard[2];
    r.hasMessage = e.msg;
    r.vectors = e.vectors ? Uint8Array.from(e.vectors) : null;
    r.actionSinceMessage = e.mono[0] === 1;
    [, r.monologueCount, r.monologueStartSeq, r.repetitionCount, r.repetitionStartSeq] = e.mono;
    r.nearUsed = e.near;
    r.actionsSinceProgress = e.stag[0];
    r.progressStartSeq = e.stag[1];
    r.lastProgressMs = e.stag[2] ?? Number.NaN;
    r.timeReported = e.stag[3];
    r.progressKey = e.stag[4];
    r.lastEventMs = e.stag[5] ?? Number.NaN;
    [r.steps, r.tokens, r.costUsd, r.budgetReported] = e.budget;
    r.touched = e.touched;
    r.lastTool = e.lastTool ?? '';
    agent.runKeys.push(e.k);
    agent.runStates.push(r);
  }
  return { agent, extra: doc.extra ?? {} };
}

function numberOrNull(value: number): number {
  return Number.isFinite(value) ? value : (null as unknown as number);
}
