import { GoalPersistence } from './goal-persistence';
import { SOURCES, action, milestoneDone, observation } from './persistence-steps.testing';

describe('a deviation and its return to progress', () => {
  it('counts the steps from the first deviation of an episode to the next progress: 3', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES], milestones: [{ id: 'm1', description: 'collect sources' }] });
    const loop = () => action(0, 'read_file', { path: 'data/empty.csv' });
    tracker.onStep(action(0, 'web_search', { query: 'solar sources' }));
    tracker.onStep(loop(), { deviations: [{ eventId: 'd1', detector: 'generic_repeat' }] }); // index 1: episode opens
    tracker.onStep(loop(), { deviations: [{ eventId: 'd2', detector: 'generic_repeat' }], corrections: [{ eventId: 'c1', action: 'hint' }] });
    tracker.onStep(action(3, 'web_search', { query: 'solar panel reviews' }));
    tracker.onStep(observation(4, 'https://a.example/1')); // index 4: an anchor moves: progress
    tracker.onStep(loop(), { deviations: [{ eventId: 'd3', detector: 'generic_repeat' }] }); // never returns
    tracker.onStep(loop(), { deviations: [{ eventId: 'd3', detector: 'generic_repeat' }] }); // redelivered: counted once
    const report = tracker.report();

    expect(report.deviations).toBe(3);
    expect(report.deviationEpisodes).toBe(2);
    expect(report.returned).toBe(1);
    expect(report.meanReturnLength).toBe(3);
    expect(report.corrections).toBe(1);
    const marked = report.curve.filter((p) => p.deviations || p.corrections);
    expect(marked.map((p) => p.index)).toEqual([1, 2, 5]);
    expect(report.curve.find((p) => p.index === 2)?.corrections).toEqual(['hint']);
  });

  it('counts a milestone signalled done as progress', () => {
    const tracker = new GoalPersistence({ anchors: [], milestones: [{ id: 'm1', description: 'fix the bug' }] });
    tracker.onStep(action(0, 'run_tests', {}), { deviations: [{ eventId: 'd1', detector: 'error_repeat' }] });
    tracker.onStep(action(1, 'edit_file', { path: 'a.ts' }));
    tracker.onStep(milestoneDone(2, 'm1'));
    expect(tracker.report()).toMatchObject({ returned: 1, meanReturnLength: 2 });
    expect(tracker.report().curve.find((p) => p.index === 2)?.milestone).toBe('m1');
  });
});

describe('localized progress', () => {
  it('counts a rise of the localized progress fraction on the same milestone as the return', () => {
    const tracker = new GoalPersistence({ anchors: [], milestones: [{ id: 'm1', description: 'fix the bug' }] });
    tracker.onStep(action(0, 'run_tests', {}), { milestoneId: 'm1', progress: 0.2, deviations: [{ eventId: 'd1', detector: 'error_repeat' }] });
    tracker.onStep(action(1, 'run_tests', {}), { milestoneId: 'm1', progress: 0.2 });
    tracker.onStep(action(2, 'edit_file', { path: 'a.ts' }), { milestoneId: 'm1', progress: 0.2 });
    tracker.onStep(action(3, 'edit_file', { path: 'b.ts' }), { milestoneId: 'm1', progress: 0.5 });
    expect(tracker.report()).toMatchObject({ returned: 1, meanReturnLength: 3 });
  });
});
