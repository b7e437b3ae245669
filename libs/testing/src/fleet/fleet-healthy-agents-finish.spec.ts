/** Healthy agents do legitimate work (varied calls, a poll whose output changes) and finish every milestone unflagged. */
import { navigateFleet } from './navigate-fleet';
import { SimulatedFleet } from './simulated-fleet';

describe('a fleet with no injected failure', () => {
  const fleet = new SimulatedFleet({ seed: 11, agents: 45, failures: 0, agentsPerTask: 3, stagger: 10 });
  const run = navigateFleet(fleet, { rounds: 300 });

  it('finishes: every agent done, every milestone of its task signalled in order', () => {
    expect(fleet.settled).toBe(true);
    for (const a of fleet.agentRecords()) {
      expect(a.state).toBe('done');
      expect(a.milestonesDone.map((m) => m.id)).toEqual(a.milestones);
    }
  });

  it('is never flagged nor corrected under any tenant policy', () => {
    expect(run.steps).toBeGreaterThan(45 * 20);
    expect(run.deviations.map((d) => `${d.tenantId}/${d.agentId} ${d.detector} at ${d.atSeq}`)).toEqual([]);
    expect(run.corrections).toEqual([]);
  });
});
