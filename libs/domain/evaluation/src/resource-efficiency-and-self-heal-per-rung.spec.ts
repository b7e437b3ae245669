import { GoalPersistence } from './goal-persistence';
import { action, observation } from './persistence-steps.testing';

describe('resource efficiency and self-heal per rung', () => {
  it('divides tokens and calls on serving steps by all, and the heals of each rung by its resolved outcomes', () => {
    const tracker = new GoalPersistence({ anchors: [], milestones: [{ id: 'load', description: 'Load the raw data files' }] });
    tracker.onStep(action(0, 'read_file', { path: 'raw data files part 1' }, 30)); // serves
    tracker.onStep(observation(1, 'row row row', 50)); // undecided → not serving
    tracker.onStep(action(2, 'job_status', { job: 'x' }, 20)); // not serving
    tracker.onSelfHeal({ action: 'hint', healed: true, steps: 2 });
    tracker.onSelfHeal({ action: 'hint', healed: false, steps: 5 });
    tracker.onSelfHeal({ action: 'rollback', healed: true, steps: 3 });
    const report = tracker.report();
    expect(report.resourceEfficiency).toEqual({ tokens: 30 / 100, calls: 1 / 2 });
    expect(report.selfHealRate).toBeCloseTo(2 / 3);
    expect(report.selfHealByRung).toEqual({ hint: { healed: 1, resolved: 2, rate: 0.5 }, rollback: { healed: 1, resolved: 1, rate: 1 } });
  });

  it('reports null efficiencies and heal rate when nothing was spent or resolved', () => {
    const report = new GoalPersistence({ anchors: [] }).report();
    expect(report.resourceEfficiency).toEqual({ tokens: null, calls: null });
    expect(report.selfHealRate).toBeNull();
    expect(report.anchorRecall).toBeNull();
  });
});
