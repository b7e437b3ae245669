// The same milestone failing its verification 3 times (policy default) is critical, with every attempt
// and its evidence; a `done` in between starts the count over.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

const map = mapOf('Collect prices -> compute the average -> write the summary');

describe('verification_failed_repeat', () => {
  it('is critical at the third failure, listing the attempts and their evidence (EN)', () => {
    const s = agentSteps();
    const m = map.milestones[1].id;
    const out = run(goalEngine(map), [
      s.milestone(m, 'failed', 'average is NaN'),
      s.milestone(m, 'failed', 'average is NaN again'),
      s.milestone(m, 'failed', 'validator: expected a number'),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ detector: 'verification_failed_repeat', level: 'critical', count: 3, atSeq: 2, loopStartSeq: 0 });
    expect(out[0].evidence['attempts']).toEqual([
      { seq: 0, evidence: 'average is NaN' },
      { seq: 1, evidence: 'average is NaN again' },
      { seq: 2, evidence: 'validator: expected a number' },
    ]);
    expect(out[0].message).toContain('failed its verification 3 times');
  });

  it('does not fire for failures of different milestones, or when the milestone was done in between (ZH evidence)', () => {
    const s = agentSteps();
    const [a, b] = map.milestones.map((x) => x.id);
    expect(run(goalEngine(map), [s.milestone(a, 'failed', '价格缺失'), s.milestone(b, 'failed', '均值错误'), s.milestone(a, 'failed', '价格缺失')])).toEqual([]);
    const t = agentSteps('a2');
    expect(run(goalEngine(map), [t.milestone(a, 'failed', '价格缺失'), t.milestone(a, 'failed', '价格缺失'), t.milestone(a, 'done'), t.milestone(a, 'failed', '价格缺失')])).toEqual([]);
  });

  it('follows the policy: 2 failures with verification.failures = 2', () => {
    const s = agentSteps();
    const m = map.milestones[0].id;
    const out = run(goalEngine(map, { verification: { failures: 2 } }), [s.milestone(m, 'failed', '价格缺失'), s.milestone(m, 'failed', '价格仍然缺失')]);
    expect(out.map((d) => [d.detector, d.count])).toEqual([['verification_failed_repeat', 2]]);
  });
});

describe('verification_failed_repeat attempts kept', () => {
  it('lists the latest 8 attempts at the 12th failure, the same after a state round trip, persisted as { failures, attempts }', () => {
    const s = agentSteps();
    const m = map.milestones[1].id;
    const steps = Array.from({ length: 12 }, (_, i) => s.milestone(m, 'failed', `attempt ${i}`));
    const a = goalEngine(map);
    run(a, steps.slice(0, 10));
    const state = a.exportAgentState('t1', 'a1') as Uint8Array;
    expect(new TextDecoder().decode(state)).toContain(JSON.stringify({ failures: 10, attempts: Array.from({ length: 8 }, (_, i) => ({ seq: i + 2, evidence: `attempt ${i + 2}` })) }));
    const b = goalEngine(map);
    b.importAgentState('t1', 'a1', state);
    const tail = [...steps.slice(10), s.milestone(m, 'failed', 'attempt 12')];
    const fromA = run(a, tail);
    expect(run(b, tail)).toEqual(fromA);
    expect(fromA).toHaveLength(1);
    expect(fromA[0]).toMatchObject({ count: 12, loopStartSeq: 4 });
    expect(fromA[0].evidence['attempts']).toEqual(Array.from({ length: 8 }, (_, i) => ({ seq: i + 4, evidence: `attempt ${i + 4}` })));
    expect(b.exportAgentState('t1', 'a1')).toEqual(a.exportAgentState('t1', 'a1'));
  });
});
