// The correction state document, version 2 (agent-ladder-state.ts): each event is written once and
// referred to by index, a version 1 document written by an earlier build is still read and decides as
// before, and a document read back writes the same bytes again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Correction } from '@wayfinder/contracts';
import { CorrectionEngine } from './correction-engine';
import { AGENT, context, deviation, FIXED_NOW, position, TENANT, walk } from './ladder-scenario.testing';

/** The scenario of the version 1 fixture: an agent looping on m2 past a hint and a rollback. */
function upTo(engine: CorrectionEngine, lastSeq: number): Correction[] {
  const ctx = context({ lastCheckpoint: undefined });
  const out: Correction[] = [];
  walk(engine, ctx, 0, 3, position('m1', [], 0));
  walk(engine, ctx, 4, 9, position('m2', ['m1'], 0.25));
  for (let seq = 10; seq <= lastSeq; seq++) {
    walk(engine, ctx, seq, seq, position('m2', ['m1'], 0.25));
    out.push(...engine.onDeviation(deviation('generic_repeat', seq, { loopStartSeq: 0, id: `d-${seq}` }), ctx).corrections);
  }
  return out;
}

function continueFrom(engine: CorrectionEngine, from: number, to: number): Correction[] {
  const ctx = context({ lastCheckpoint: undefined });
  const out: Correction[] = [];
  for (let seq = from; seq <= to; seq++) {
    walk(engine, ctx, seq, seq, position('m2', ['m1'], 0.25));
    out.push(...engine.onDeviation(deviation('generic_repeat', seq, { loopStartSeq: 0, id: `d-${seq}` }), ctx).corrections);
  }
  return out;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function exported(engine: CorrectionEngine): Uint8Array {
  const state = engine.exportAgentState(TENANT, AGENT);
  if (!state) throw new Error('the engine holds no state for the agent');
  return state;
}

describe('the correction state document', () => {
  it('writes each event once, however many places of the ladder (and its escalation) hold it', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const corrections = upTo(engine, 20);
    expect(corrections.map((c) => c.action)).toEqual(['hint', 'rollback', 'replan', 'freeze']);
    const doc = text(exported(engine));
    expect(JSON.parse(doc).v).toBe(2);
    const escalation = (JSON.parse(doc).events as Array<{ schema: string; deviations?: unknown[] }>).find((e) => e.schema === 'wayfinder.escalation.v1');
    expect(escalation?.deviations?.length).toBeGreaterThan(5);
    for (const c of corrections) expect(doc.split(`"eventId":"${c.eventId}"`)).toHaveLength(2);
    for (let seq = 10; seq <= 19; seq++) expect(doc.split(`"eventId":"d-${seq}"`)).toHaveLength(2);
  });

  it('reads a version 1 document of an earlier build and decides what the uninterrupted engine decides', () => {
    const v1 = readFileSync(join(__dirname, 'fixtures', 'ladder-state-v1.json'));
    expect(JSON.parse(v1.toString('utf8')).v).toBe(1);
    const reference = new CorrectionEngine({ now: () => FIXED_NOW });
    upTo(reference, 14);
    const restored = new CorrectionEngine({ now: () => FIXED_NOW });
    restored.importAgentState(TENANT, AGENT, new Uint8Array(v1));
    // Read back, it is the same state: written again, the same document as the reference's.
    expect(text(exported(restored))).toBe(text(exported(reference)));
    const after = continueFrom(restored, 15, 22);
    expect(after.map((c) => c.action)).toContain('freeze');
    expect(after).toEqual(continueFrom(reference, 15, 22));
  });

  it('writes the same bytes once read back, and a reference to no event is refused', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    upTo(engine, 20);
    const first = exported(engine);
    const again = new CorrectionEngine({ now: () => FIXED_NOW });
    again.importAgentState(TENANT, AGENT, first);
    expect(text(exported(again))).toBe(text(first));
    const broken = text(first).replace(/"corrections":\[(\d+)/, '"corrections":[999');
    expect(broken).not.toBe(text(first));
    expect(() => new CorrectionEngine().importAgentState(TENANT, AGENT, new TextEncoder().encode(broken))).toThrow(/no event 999/);
    const unnamed = text(first).replace(/"correctionsTried":\["cor-/, '"correctionsTried":["nothing-');
    expect(unnamed).not.toBe(text(first));
    expect(() => new CorrectionEngine().importAgentState(TENANT, AGENT, new TextEncoder().encode(unnamed))).toThrow(/names no event nothing-/);
  });
});
