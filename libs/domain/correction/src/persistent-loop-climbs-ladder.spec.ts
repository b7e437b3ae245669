// A loop that persists climbs hint → rollback → replan → freeze, one rung per tolerance window.
import { Correction, Escalation } from '@wayfinder/contracts';
import { CorrectionEngine } from './correction-engine';
import { AGENT, context, deviation, FIXED_NOW, position, RUN, TENANT, walk } from './ladder-scenario.testing';

describe('a loop that persists', () => {
  const engine = new CorrectionEngine({ now: () => FIXED_NOW });
  const ctx = context();
  const onM2 = position('m2', ['m1'], 0.25);
  const decisions: { seq: number; actions: string[]; escalations: Escalation[]; corrections: Correction[] }[] = [];

  const at = (seq: number) => {
    const found = decisions.find((d) => d.seq === seq);
    if (!found) throw new Error(`no decision at seq ${seq}`);
    return found;
  };

  beforeAll(() => {
    walk(engine, ctx, 0, 9, onM2);
    // The loop is reported at every step from seq 10 to 20; only the ones past the window may climb.
    for (let seq = 10; seq <= 20; seq++) {
      walk(engine, ctx, seq, seq, onM2);
      const d = engine.onDeviation(deviation('generic_repeat', seq, { loopStartSeq: 0 }), ctx);
      decisions.push({ seq, actions: d.corrections.map((c) => c.action), escalations: d.escalations, corrections: d.corrections });
    }
  });

  it('climbs one rung per tolerance window and never skips one', () => {
    const emitted = decisions.filter((d) => d.actions.length > 0).map((d) => [d.seq, d.actions[0]]);
    expect(emitted).toEqual([
      [10, 'hint'],
      [13, 'rollback'],
      [16, 'replan'],
      [19, 'freeze'],
    ]);
    const severities = decisions.flatMap((d) => d.corrections.map((c) => c.severity));
    expect(severities).toEqual(['mild', 'moderate', 'severe', 'critical']);
    for (const c of decisions.flatMap((d) => d.corrections)) expect(() => Correction.parse(c)).not.toThrow();
  });

  it('rolls back to the last verified checkpoint and carries the failure reason', () => {
    const rollback = at(13).corrections[0];
    expect(rollback).toMatchObject({ action: 'rollback', rollback: { checkpointId: 'cp-m1', milestoneId: 'm1', discardAfterSeq: 4 } });
    expect(rollback.reason).toContain('hint at seq 10 did not heal');
    // The deviations reported inside the window are cited by the rung that follows them.
    expect(rollback.deviationIds).toHaveLength(3);
  });

  it('replans from the current milestone to the target, not from the start', () => {
    const replan = at(16).corrections[0];
    if (replan.action !== 'replan') throw new Error(`expected a replan, got ${replan.action}`);
    expect(replan.replan.fromMilestoneId).toBe('m2');
    expect(replan.replan.remaining).toEqual(['m2', 'm3', 'm4']);
    expect(replan.replan.reason).toContain('rollback at seq 13 did not heal');
  });

  it('freezes and escalates with the full report, then stays silent', () => {
    const freeze = at(19);
    expect(freeze.escalations).toHaveLength(1);
    const escalation = Escalation.parse(freeze.escalations[0]);
    const frozen = freeze.corrections[0];
    if (frozen.action !== 'freeze') throw new Error('expected a freeze');
    expect(frozen.freeze.escalationId).toBe(escalation.eventId);
    expect(escalation.loopStartSeq).toBe(0);
    expect(escalation.lastVerifiedMilestoneId).toBe('m1');
    expect(escalation.correctionsTried.map((c) => c.action)).toEqual(['hint', 'rollback', 'replan']);
    expect(escalation.deviations).toHaveLength(10);
    expect(at(20).actions).toEqual([]);
    expect(engine.isFrozen(TENANT, AGENT, RUN)).toBe(true);
    expect(engine.failureReason(TENANT, AGENT, RUN)).toContain('replan at seq 16 did not heal');
    expect(engine.stats()).toMatchObject({ corrections: 4, escalations: 1 });
  });
});
