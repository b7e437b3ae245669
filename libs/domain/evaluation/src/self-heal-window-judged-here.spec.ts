import { GoalPersistence } from './goal-persistence';
import { action, milestoneDone } from './persistence-steps.testing';

describe('self-heal judged from the trajectory when a window is given', () => {
  it('heals a hint followed by progress within the window, not a rollback with none, and never watches a freeze', () => {
    const tracker = new GoalPersistence({ anchors: [], milestones: [{ id: 'm1', description: 'fix it' }, { id: 'm2', description: 'ship it' }] }, { selfHealWindow: 3 });
    tracker.onStep(action(0, 'run_tests', {}), { corrections: [{ eventId: 'c1', action: 'hint' }] });
    tracker.onStep(action(1, 'edit_file', { path: 'a' }));
    tracker.onStep(milestoneDone(2, 'm1')); // 2 steps after the hint: healed
    tracker.onStep(action(3, 'run_tests', {}), { corrections: [{ eventId: 'c2', action: 'rollback' }, { eventId: 'c3', action: 'freeze' }] });
    for (let seq = 4; seq <= 7; seq++) tracker.onStep(action(seq, 'run_tests', { n: seq }));
    const report = tracker.report();
    expect(report.selfHealByRung).toEqual({ hint: { healed: 1, resolved: 1, rate: 1 }, rollback: { healed: 0, resolved: 1, rate: 0 } });
    expect(report.selfHealRate).toBe(0.5);
  });
});
