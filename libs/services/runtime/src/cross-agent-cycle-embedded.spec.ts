/**
 * cross_agent_cycle through the services on the in-process bus: two agents of a tenant delegate to each
 * other four times with no progress; their steps reach the detector-worker as separate agents, whose
 * delegation signals meet in the tenant's graph (wayfinder.delegations.v1), and both agents get the
 * deviation and a correction. The same steps under another tenant's two agents interleaved with a third
 * tenant's do not cross tenants.
 */
import type { Correction, Deviation, StepEvent } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

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

describe('cross_agent_cycle in the embedded services', () => {
  let running: RunningServices;
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    running = await startServices(loadConfig({}), { bus, logger: false });
  });

  afterAll(() => running.stop());

  it('gives both agents of the cycle the deviation and a correction', async () => {
    const ping: Array<[string, string]> = [['planner', 'researcher'], ['researcher', 'planner'], ['planner', 'researcher'], ['researcher', 'planner']];
    await running.bus.publish('wayfinder.steps.v1', delegations('acme', ping));
    await until(() => deviations.filter((d) => d.detector === 'cross_agent_cycle').length >= 2, 10_000, 'both cycle deviations');
    const cycle = deviations.filter((d) => d.detector === 'cross_agent_cycle');
    expect(cycle.map((d) => [d.tenantId, d.agentId]).sort()).toEqual([['acme', 'planner'], ['acme', 'researcher']]);
    expect(cycle[0].evidence['cycle']).toEqual(['researcher', 'planner', 'researcher']);
    await until(() => corrections.filter((c) => c.deviationIds.some((id) => id.includes('cross_agent_cycle'))).length >= 2, 10_000, 'a correction for each agent');
  });

  it('does not link agents across tenants', async () => {
    await running.bus.publish('wayfinder.steps.v1', [...delegations('t-one', [['a', 'b'], ['a', 'b']]), ...delegations('t-two', [['b', 'a'], ['b', 'a']])]);
    // A cycle published after them, in a tenant of its own: once it is seen, the steps before it were handled.
    await running.bus.publish('wayfinder.steps.v1', delegations('sentinel', [['p', 'q'], ['q', 'p'], ['p', 'q'], ['q', 'p']]));
    await until(() => deviations.some((d) => d.tenantId === 'sentinel' && d.detector === 'cross_agent_cycle'), 10_000, 'the sentinel cycle');
    expect(deviations.filter((d) => d.detector === 'cross_agent_cycle' && (d.tenantId === 't-one' || d.tenantId === 't-two'))).toEqual([]);
  });
});
