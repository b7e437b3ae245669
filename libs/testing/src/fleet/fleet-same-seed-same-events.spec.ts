/** The fleet is a pure function of its seed: same seed, same tasks, policies and step events; valid events. */
import { parsePayload, type StepEvent } from '@wayfinder/contracts';
import { SimulatedFleet } from './simulated-fleet';

function drain(fleet: SimulatedFleet, rounds: number): StepEvent[] {
  const out: StepEvent[] = [];
  for (let r = 0; r < rounds; r++) out.push(...fleet.nextSteps());
  return out;
}

describe('a simulated fleet with a seed', () => {
  it('emits the same events, tasks, policies and ground truth for the same seed', () => {
    const a = new SimulatedFleet({ seed: 42, agents: 40, failures: 12, stagger: 5 });
    const b = new SimulatedFleet({ seed: 42, agents: 40, failures: 12, stagger: 5 });
    expect(b.tasks()).toEqual(a.tasks());
    expect(b.policies()).toEqual(a.policies());
    const stepsA = drain(a, 80);
    expect(drain(b, 80)).toEqual(stepsA);
    expect(stepsA.length).toBeGreaterThan(1000);
    expect(b.groundTruth()).toEqual(a.groundTruth());
  });

  it('emits different events for another seed', () => {
    const a = drain(new SimulatedFleet({ seed: 1, agents: 20 }), 30);
    const b = drain(new SimulatedFleet({ seed: 2, agents: 20 }), 30);
    expect(b).not.toEqual(a);
  });

  it('emits valid wayfinder.step.v1 events: increasing seq, paired callIds, milestones of the task', () => {
    const fleet = new SimulatedFleet({ seed: 9, agents: 36, failures: 12 });
    const milestonesOf = new Map(fleet.tasks().map((t) => [`${t.tenantId}/${t.taskId}`, new Set(t.milestones!.map((m) => m.id))]));
    const lastSeq = new Map<string, number>();
    const pending = new Map<string, string>();
    for (const step of drain(fleet, 120)) {
      const parsed = parsePayload('wayfinder.steps.v1', step);
      expect(parsed).toEqual({ ok: true, value: step });
      const agent = `${step.tenantId}/${step.agentId}`;
      expect(step.seq).toBe((lastSeq.get(agent) ?? -1) + 1);
      lastSeq.set(agent, step.seq);
      if (step.kind === 'action') pending.set(`${agent}/${step.action.callId}`, step.action.tool);
      if (step.kind === 'observation') {
        expect(pending.get(`${agent}/${step.observation.callId}`)).toBe(step.observation.tool);
        pending.delete(`${agent}/${step.observation.callId}`);
      }
      if (step.kind === 'milestone') expect(milestonesOf.get(`${step.tenantId}/${step.taskId}`)?.has(step.milestone.id)).toBe(true);
    }
  });

  it('spreads agents over tenants with different policies and injects the exact number of failures asked for', () => {
    const fleet = new SimulatedFleet({ seed: 3, agents: 60, failures: 10, agentsPerTask: 4 });
    expect(new Set(fleet.agentRecords().map((a) => a.tenantId))).toEqual(new Set(['acme', 'globex', 'initech']));
    expect(new Set(fleet.policies().map((p) => p.policy.profile))).toEqual(new Set(['balanced', 'strict', 'lenient']));
    expect(fleet.groundTruth()).toHaveLength(10);
    expect(fleet.tasks().every((t) => (t.agentIds?.length ?? 0) <= 4)).toBe(true);
    expect(fleet.tasks().reduce((n, t) => n + t.agentIds!.length, 0)).toBe(60);
  });
});
