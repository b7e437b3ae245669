/**
 * cross_agent_cycle when a tenant's agents live on different instances (issue #28): each instance's
 * Navigator returns its steps' delegation signals (`crossAgent: 'published'`), one DelegationGraph per
 * tenant turns them into deviations, and each goes up its own agent's ladder on the instance that owns
 * the agent (`onDeviation`). The cycle deviations and their corrections are those of one Navigator that
 * sees every agent in process (replay, embedded), ids included.
 */
import type { Correction, Deviation, StepEvent } from '@wayfinder/contracts';
import { DelegationGraph, resolvePolicy } from '@wayfinder/detection';
import { createNavigator } from './create-navigator';

const policy = resolvePolicy();

function delegations(tenantId: string, pairs: Array<[string, string]>): StepEvent[] {
  const seqs = new Map<string, number>();
  return pairs.map(([from, to], i) => {
    const seq = seqs.get(from) ?? 0;
    seqs.set(from, seq + 1);
    return {
      schema: 'wayfinder.step.v1', eventId: `${tenantId}-${from}-${seq}`, tenantId, agentId: from, taskId: 'pricing', runId: `run-${from}`, seq,
      ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), kind: 'message', message: { role: 'assistant', text: `please handle part ${i}` }, attributes: { delegateTo: to },
    };
  });
}

const ids = (list: ReadonlyArray<Deviation | Correction>) => list.map((x) => `${x.agentId}@${x.atSeq} ${x.eventId}`).sort();

describe('cross_agent_cycle across instances', () => {
  const steps = delegations('acme', [['planner', 'researcher'], ['researcher', 'planner'], ['planner', 'researcher'], ['researcher', 'planner'], ['planner', 'researcher'], ['researcher', 'planner']]);

  function inProcess(): { deviations: Deviation[]; corrections: Correction[] } {
    const navigator = createNavigator({ policy });
    const deviations: Deviation[] = [];
    const corrections: Correction[] = [];
    for (const step of steps) {
      const r = navigator.onStep(step);
      deviations.push(...r.deviations);
      corrections.push(...r.corrections);
    }
    return { deviations: deviations.filter((d) => d.detector === 'cross_agent_cycle'), corrections: corrections.filter((c) => c.deviationIds.some((id) => id.includes('cross_agent_cycle'))) };
  }

  it('gives each agent of the cycle the same deviation and correction as one Navigator in process', () => {
    // Two instances: the planner's partition on one, the researcher's on the other.
    const owner = new Map([['planner', createNavigator({ policy, crossAgent: 'published' })], ['researcher', createNavigator({ policy, crossAgent: 'published' })]]);
    const graph = new DelegationGraph();
    const deviations: Deviation[] = [];
    const corrections: Correction[] = [];
    for (const step of steps) {
      const r = owner.get(step.agentId)!.onStep(step);
      expect(r.deviations.filter((d) => d.detector === 'cross_agent_cycle')).toEqual([]); // no graph in the instance
      for (const signal of r.delegations ?? []) {
        for (const deviation of graph.onSignal(signal, policy.crossAgent)) {
          deviations.push(deviation);
          corrections.push(...owner.get(deviation.agentId)!.onDeviation(deviation).corrections);
        }
      }
    }
    const expected = inProcess();
    expect(expected.deviations.length).toBeGreaterThanOrEqual(2);
    expect(expected.corrections.length).toBeGreaterThanOrEqual(2);
    expect(ids(deviations)).toEqual(ids(expected.deviations));
    expect(ids(corrections)).toEqual(ids(expected.corrections));
    expect(new Set(deviations.map((d) => d.agentId))).toEqual(new Set(['planner', 'researcher']));
  });

  it('returns no signals in process, and none when the tenant turned cross-agent detection off', () => {
    expect(createNavigator({ policy }).onStep(steps[0]!).delegations).toBeUndefined();
    const off = resolvePolicy(undefined, { crossAgent: { enabled: false } });
    expect(createNavigator({ policy: off, crossAgent: 'published' }).onStep(steps[0]!).delegations).toBeUndefined();
    expect(createNavigator({ policy, crossAgent: 'published' }).onStep(steps[0]!).delegations).toEqual([expect.objectContaining({ agentId: 'planner' })]);
  });
});
