import { GoalPersistence } from './goal-persistence';
import { SOURCES, action } from './persistence-steps.testing';

describe('the persistence curve of a long run', () => {
  it('stays bounded but never drops a deviation, correction or milestone point', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES] }, { maxCurvePoints: 50 });
    for (let seq = 0; seq < 1000; seq++) {
      tracker.onStep(action(seq, 'web_search', { query: `query ${seq}` }), {
        ...(seq === 777 ? { deviations: [{ eventId: 'd777', detector: 'generic_repeat' }] } : {}),
        ...(seq === 778 ? { corrections: [{ eventId: 'c778', action: 'hint' }] } : {}),
      });
    }
    const curve = tracker.report().curve;
    expect(curve.length).toBeLessThanOrEqual(52);
    expect(curve.find((p) => p.seq === 777)?.deviations).toEqual(['generic_repeat']);
    expect(curve.find((p) => p.seq === 778)?.corrections).toEqual(['hint']);
    expect(curve.map((p) => p.index)).toEqual([...curve.map((p) => p.index)].sort((a, b) => a - b));
  });
});
