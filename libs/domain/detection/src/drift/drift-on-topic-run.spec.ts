import { HashingEmbedder } from '@wayfinder/embeddings';
import { DriftDetector } from './drift.detector';
import { onTopicQueries, policy, scooterMap, stepper } from './testing/drift-steps';

describe('drift on a run that stays on topic', () => {
  it('emits nothing without a map (goal from the first user message)', () => {
    const detector = new DriftDetector(new HashingEmbedder());
    const s = stepper();
    const steps = [
      s.user('Compare electric scooter brands on price, battery range and weight and write a short report'),
      ...onTopicQueries.flatMap((q) => [s.act('web_search', { query: q }), s.see('web_search', `results for ${q}`)]),
      s.say('The electric scooter brands compare as follows on price, battery range and weight: Xiaomi is cheapest.'),
    ];
    expect(steps.flatMap((step) => detector.onStep(step, undefined, { policy }))).toEqual([]);
  });

  it('emits nothing with a map and a localized position', () => {
    const detector = new DriftDetector(new HashingEmbedder());
    const s = stepper();
    const position = { milestoneId: 'collect', completed: [], progress: 0, confidence: 0.5, method: 'similarity' as const };
    const out = onTopicQueries.flatMap((q) => detector.onStep(s.act('web_search', { query: q }), position, { policy, map: scooterMap }));
    expect(out).toEqual([]);
  });

  it('stays silent when the policy disables drift', () => {
    const detector = new DriftDetector(new HashingEmbedder());
    const s = stepper();
    const off = { ...policy, drift: { ...policy.drift, enabled: false, goalThreshold: 0.99, milestoneThreshold: 0.99 } };
    const out = [s.user('scooters'), ...onTopicQueries.map((q) => s.act('web_search', { query: q }))].flatMap((st) => detector.onStep(st, undefined, { policy: off }));
    expect(out).toEqual([]);
  });
});
