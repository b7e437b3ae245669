/**
 * States written before the binary codec (v1: a JSON document, drift's vectors as base64 int8) are still
 * in Redis after an upgrade: they decode to the same state, so detection continues as it would have, and
 * the next write is v2. The v1 writers below are the ones that shipped, kept here to produce such documents.
 */
import type { DriftRunState } from './drift';
import { decodeDriftState } from './drift/drift.detector';
import type { AgentState } from './state/agent-state';
import { decodeAgentState } from './state/codec';
import { MORE_WORDS, type RunState } from './state/run-state';
import { sketchByte } from './state/sketch';
import { driftEngine, driftScenario } from './test-support/drift-engine';
import { engineFor, runAll, steps } from './test-support/step-builder';

function encodeAgentStateV1(agent: AgentState, extra: Record<string, unknown>): Uint8Array {
  const runs = [];
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
      stag: [r.actionsSinceProgress, r.progressStartSeq, r.lastProgressMs !== null && Number.isFinite(r.lastProgressMs) ? r.lastProgressMs : null, r.timeReported, r.progressKey, null],
      budget: [r.steps, r.tokens, r.costUsd, r.budgetReported],
      touched: r.touched,
      lastTool: r.lastTool,
    });
  }
  const doc = { v: 1, events: [...agent.recentEvents], head: agent.recentHead, runs, extra };
  return new TextEncoder().encode(JSON.stringify(doc));
}

function sketchBytes(r: RunState): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < (r.data.length - r.vectorsOffset) * 4; i++) bytes.push(sketchByte(r.data, r.vectorsOffset, i));
  return bytes;
}

/** The drift detector's v1 exportState: its run states as JSON, each vector as base64 int8 and a scale. */
function driftStateV1(runs: Map<string, DriftRunState>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const isVector = (k: string, v: unknown): v is string => typeof v === 'string' && (k === 'vector' || k === 'milestoneVector');
  for (const [run, s] of runs) out[run] = JSON.parse(JSON.stringify(nestedV1(s), (k, v: unknown) => (isVector(k, v) ? quantizeV1(v) : v)));
  return out;
}

/** A run in the shape v1 wrote it (goal, plan and curves as objects of their own; the run is flat since). */
function nestedV1(s: DriftRunState): Record<string, unknown> {
  return {
    goal: s.goalVector === undefined ? undefined : { vector: s.goalVector, source: s.goalSource, seq: s.goalSeq },
    plan: s.planVector === undefined ? undefined : { vector: s.planVector, items: s.planItems, callsForLookup: s.planCallsForLookup, seq: s.planSeq },
    milestoneId: s.milestoneId,
    milestoneVector: s.milestoneVector,
    work: s.work,
    scored: s.scored,
    goalCurve: { ema: s.goalEma, low: s.goalLow, lowSince: s.goalLowSince, emitted: s.goalEmitted },
    milestoneCurve: { ema: s.milestoneEma, low: s.milestoneLow, lowSince: s.milestoneLowSince, emitted: s.milestoneEmitted },
    planSkipFired: s.planSkipFired,
    codePending: s.codePending,
  };
}

/** The run keeps its vectors as int8 already (v1 quantized the same way, against the largest magnitude); here as their byte string. */
function quantizeV1(v: string): { q8: string; scale: number } {
  const bytes = Buffer.from(v, 'latin1');
  let max = 0;
  for (const x of new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length)) max = Math.max(max, Math.abs(x));
  return { q8: bytes.toString('base64'), scale: max > 0 ? 1 / 127 : 1 };
}

describe('v1 agent state documents', () => {
  it('restore the balanced state with drift: same deviations afterwards, and the same current bytes', () => {
    const { head, tail } = driftScenario();
    const a = driftEngine();
    runAll(a, head);
    const current = a.exportAgentState('t1', 'a1') as Uint8Array;
    const { agent, extra } = decodeAgentState('t1', 'a1', current);
    const v1 = encodeAgentStateV1(agent, { drift: driftStateV1(decodeDriftState(extra.drift as Uint8Array)) });
    expect(v1[0]).toBe('{'.charCodeAt(0));

    // v1 (and v2) documents predate the project detectors' counters and the evidence words: they restore
    // without them (counters at zero), so the same decisions follow, naming less.
    for (const [, run] of agent.runs()) {
      run.data.fill(0, run.moreOffset, run.moreOffset + MORE_WORDS);
      run.words = null;
    }
    const b = driftEngine();
    b.importAgentState('t1', 'a1', v1);
    // The same state, written as v2; only semantic_repetition's chain (a plug-in's own state since the
    // per-detector embedder choice, not in v1 documents) starts over.
    const restored = decodeAgentState('t1', 'a1', b.exportAgentState('t1', 'a1') as Uint8Array);
    expect(restored.agent).toEqual(agent);
    expect(restored.extra.drift).toEqual(extra.drift);
    const fromB = runAll(b, tail);
    const decisions = (list: typeof fromB) => list.map(({ evidence, ...d }) => ({ ...d, evidence: Object.fromEntries(Object.entries(evidence).filter(([k]) => !k.endsWith('Preview') && k !== 'changedFields' && k !== 'milestone')) }));
    expect(decisions(fromB)).toEqual(decisions(runAll(a, tail)));
    expect(new Set(fromB.map((d) => d.detector))).toEqual(new Set(['drift', 'near_duplicate_calls']));
  });

  it('restore a loop mid-way and the record of applied events', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 25; i++) events.push(s.act('read', { path: '/same.txt' }), s.ok('read', 'same output'));
    const a = engineFor({ profile: 'openclaw' });
    runAll(a, events.slice(0, 30));
    const { agent } = decodeAgentState('t1', 'a1', a.exportAgentState('t1', 'a1') as Uint8Array);
    const b = engineFor({ profile: 'openclaw' });
    b.importAgentState('t1', 'a1', encodeAgentStateV1(agent, {}));
    expect(b.onStep(events[29])).toEqual([]);
    const fromB = runAll(b, events.slice(30));
    expect(fromB).toEqual(runAll(a, events.slice(30)));
    expect(fromB.some((d) => d.detector === 'generic_repeat' && d.count === 20)).toBe(true);
  });

  it('of another version are refused by name', () => {
    const doc = new TextEncoder().encode(JSON.stringify({ v: 7, events: [], head: 0, runs: [] }));
    expect(() => engineFor().importAgentState('t1', 'a1', doc)).toThrow('unsupported detector state version 7');
  });
});
