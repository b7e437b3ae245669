// An agent's ladder exported and imported into a fresh engine (a restart, a partition move) decides
// exactly what one uninterrupted engine decides: the next rung, the checkpoint it had, the freeze.
import type { Correction } from '@wayfinder/contracts';
import { CorrectionEngine } from './correction-engine';
import { AGENT, context, deviation, FIXED_NOW, position, TENANT, walk } from './ladder-scenario.testing';

function run(restartAfterSeq: number | null): Correction[] {
  let engine = new CorrectionEngine({ now: () => FIXED_NOW });
  const ctx = context({ lastCheckpoint: undefined });
  const out: Correction[] = [];
  walk(engine, ctx, 0, 3, position('m1', [], 0));
  walk(engine, ctx, 4, 9, position('m2', ['m1'], 0.25)); // m1 verified at seq 4: the checkpoint
  for (let seq = 10; seq <= 22; seq++) {
    walk(engine, ctx, seq, seq, position('m2', ['m1'], 0.25));
    out.push(...engine.onDeviation(deviation('generic_repeat', seq, { loopStartSeq: 0, id: `d-${seq}` }), ctx).corrections);
    if (seq === restartAfterSeq) {
      const state = engine.exportAgentState(TENANT, AGENT)!;
      engine = new CorrectionEngine({ now: () => FIXED_NOW });
      engine.importAgentState(TENANT, AGENT, state);
    }
  }
  return out;
}

describe('a ladder carried across a restart', () => {
  const reference = run(null);

  it('climbs to a rollback to the checkpoint the agent had, after the hint, never repeating it', () => {
    const restarted = run(10);
    expect(restarted.map((c) => c.action)).toEqual(['hint', 'rollback', 'replan', 'freeze']);
    const rollback = restarted.find((c) => c.action === 'rollback');
    expect(rollback?.action === 'rollback' && rollback.rollback).toEqual({ checkpointId: 'cp:task-1:m1:4', milestoneId: 'm1', discardAfterSeq: 4 });
    expect(restarted).toEqual(reference);
  });

  it('stays frozen after a restart past the freeze', () => {
    expect(run(20)).toEqual(reference);
    let engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ lastCheckpoint: undefined });
    walk(engine, ctx, 0, 9, position('m2', ['m1'], 0.25));
    engine.onDeviation(deviation('constraint_violation', 9, { level: 'critical', count: 1, evidence: { tool: 'delete_database' } }), ctx);
    expect(engine.isFrozen(TENANT, AGENT, 'run-1')).toBe(true);
    const state = engine.exportAgentState(TENANT, AGENT)!;
    engine = new CorrectionEngine({ now: () => FIXED_NOW });
    engine.importAgentState(TENANT, AGENT, state);
    expect(engine.isFrozen(TENANT, AGENT, 'run-1')).toBe(true);
    expect(engine.onDeviation(deviation('generic_repeat', 12), ctx).corrections).toEqual([]);
  });

  it('refuses a document of another agent or version', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    walk(engine, context(), 0, 2, position('m1', [], 0));
    const state = engine.exportAgentState(TENANT, AGENT)!;
    expect(() => new CorrectionEngine().importAgentState(TENANT, 'someone-else', state)).toThrow(/another agent/);
    expect(() => new CorrectionEngine().importAgentState(TENANT, AGENT, new TextEncoder().encode('{"v":99}'))).toThrow(/version/);
  });
});
