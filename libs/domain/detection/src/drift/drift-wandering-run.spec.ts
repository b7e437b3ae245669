import { HashingEmbedder } from '@wayfinder/embeddings';
import { DriftDetector } from './drift.detector';
import { offTopicQueries, onTopicQueries, policy, scooterMap, stepper } from './testing/drift-steps';

describe('drift on a run that wanders off', () => {
  it('flags the goal curve once the off-topic streak outlasts the tolerance window, then escalates', () => {
    const detector = new DriftDetector(new HashingEmbedder());
    const s = stepper();
    const steps = [
      s.user('Compare electric scooter brands on price, battery range and weight and write a short report'),
      ...onTopicQueries.slice(0, 4).map((q) => s.act('web_search', { query: q })),
      ...[...offTopicQueries, ...offTopicQueries].map((q) => s.act('web_search', { query: q })),
    ];
    const out = steps.flatMap((step) => detector.onStep(step, undefined, { policy }));
    const goal = out.filter((d) => d.evidence.curve === 'goal');
    expect(goal.map((d) => d.level)).toEqual(['warning', 'critical']);
    const [warning] = goal;
    expect(warning.detector).toBe('drift');
    // The streak starts with the first off-topic search (seq 5) and is flagged after `toleranceSteps` of them.
    expect(warning.loopStartSeq).toBeGreaterThanOrEqual(5);
    expect(warning.atSeq).toBeGreaterThanOrEqual(warning.loopStartSeq + policy.drift.toleranceSteps - 1);
    expect(warning.evidence).toMatchObject({ curve: 'goal', threshold: policy.drift.goalThreshold, window: policy.drift.toleranceSteps });
    expect(warning.message).toMatch(/relevance to the goal/);
  });

  it('names the milestone curve when the work leaves the current milestone of the map', () => {
    const detector = new DriftDetector(new HashingEmbedder());
    const s = stepper();
    const position = { milestoneId: 'collect', completed: [], progress: 0, confidence: 0.5, method: 'similarity' as const };
    const steps = [...onTopicQueries.slice(0, 4), ...offTopicQueries].map((q) => s.act('web_search', { query: q }));
    const out = steps.flatMap((step) => detector.onStep(step, position, { policy, map: scooterMap }));
    const milestone = out.find((d) => d.evidence.curve === 'milestone');
    expect(milestone).toMatchObject({ level: 'warning', evidence: { curve: 'milestone', milestone: 'collect' } });
    expect(milestone?.message).toMatch(/milestone collect/);
  });

  it('re-arms after the run comes back on topic, and keeps runs apart', () => {
    const detector = new DriftDetector(new HashingEmbedder());
    const s = stepper('r1');
    const other = stepper('r2');
    const ctx = { policy };
    detector.onStep(s.user('Compare electric scooter brands on price, battery range and weight'), undefined, ctx);
    detector.onStep(other.user('Compare electric scooter brands on price, battery range and weight'), undefined, ctx);
    const wander = () => offTopicQueries.slice(0, 5).flatMap((q) => detector.onStep(s.act('web_search', { query: q }), undefined, ctx));
    for (const q of onTopicQueries.slice(0, 4)) detector.onStep(s.act('web_search', { query: q }), undefined, ctx);
    expect(wander().filter((d) => d.level === 'warning')).toHaveLength(1);
    for (const q of onTopicQueries) detector.onStep(s.act('web_search', { query: q }), undefined, ctx);
    expect(wander().filter((d) => d.level === 'warning')).toHaveLength(1);
    // Run r2 saw only on-topic steps: r1's streaks are not its.
    expect(onTopicQueries.flatMap((q) => detector.onStep(other.act('web_search', { query: q }), undefined, ctx))).toEqual([]);
  });

  it('carries its state through export and import', () => {
    const a = new DriftDetector(new HashingEmbedder());
    const s = stepper();
    a.onStep(s.user('Compare electric scooter brands on price, battery range and weight'), undefined, { policy });
    for (const q of [...onTopicQueries.slice(0, 4), ...offTopicQueries.slice(0, 2)]) a.onStep(s.act('web_search', { query: q }), undefined, { policy });
    const b = new DriftDetector(new HashingEmbedder());
    const state = a.exportState('t1', 'a1');
    expect(state).toBeInstanceOf(Uint8Array);
    b.importState('t1', 'a1', (state as Uint8Array).slice());
    const rest = offTopicQueries.slice(2).map((q) => s.act('web_search', { query: q }));
    const fromA = rest.flatMap((st) => a.onStep(st, undefined, { policy }));
    const fromB = rest.flatMap((st) => b.onStep(st, undefined, { policy }));
    // Vectors travel quantized: the same curves fire at the same steps, similarities agree to 0.01.
    expect(fromB.map((d) => [d.atSeq, d.level, d.evidence.curve, d.loopStartSeq])).toEqual(fromA.map((d) => [d.atSeq, d.level, d.evidence.curve, d.loopStartSeq]));
    fromB.forEach((d, i) => expect(d.evidence.similarity as number).toBeCloseTo(fromA[i].evidence.similarity as number, 2));
    expect(fromA.length).toBeGreaterThan(0);
    expect(a.exportState('t1', 'a1')?.length).toBeLessThan(512);
  });
});
