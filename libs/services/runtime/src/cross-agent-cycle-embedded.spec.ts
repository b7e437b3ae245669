/**
 * cross_agent_cycle through the services on the in-process bus: two agents of a tenant delegate to each
 * other four times with no progress; their steps reach the detector-worker as separate agents, whose
 * delegation signals meet in the tenant's graph (wayfinder.delegations.v1), and both agents get the
 * deviation and a correction. The same steps under another tenant's two agents interleaved with a third
 * tenant's do not cross tenants.
 */
import type { Correction, Deviation } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { delegationRounds, until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

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
    await running.bus.publish('wayfinder.steps.v1', delegationRounds('acme', ping));
    await until(() => deviations.filter((d) => d.detector === 'cross_agent_cycle').length >= 2, 10_000, 'both cycle deviations');
    const cycle = deviations.filter((d) => d.detector === 'cross_agent_cycle');
    expect(cycle.map((d) => [d.tenantId, d.agentId]).sort()).toEqual([['acme', 'planner'], ['acme', 'researcher']]);
    expect(cycle[0].evidence['cycle']).toEqual(['researcher', 'planner', 'researcher']);
    await until(() => corrections.filter((c) => c.deviationIds.some((id) => id.includes('cross_agent_cycle'))).length >= 2, 10_000, 'a correction for each agent');
  });

  it('does not link agents across tenants', async () => {
    await running.bus.publish('wayfinder.steps.v1', [...delegationRounds('t-one', [['a', 'b'], ['a', 'b']]), ...delegationRounds('t-two', [['b', 'a'], ['b', 'a']])]);
    // A cycle published after them, in a tenant of its own: once it is seen, the steps before it were handled.
    await running.bus.publish('wayfinder.steps.v1', delegationRounds('sentinel', [['p', 'q'], ['q', 'p'], ['p', 'q'], ['q', 'p']]));
    await until(() => deviations.some((d) => d.tenantId === 'sentinel' && d.detector === 'cross_agent_cycle'), 10_000, 'the sentinel cycle');
    expect(deviations.filter((d) => d.detector === 'cross_agent_cycle' && (d.tenantId === 't-one' || d.tenantId === 't-two'))).toEqual([]);
  });
});
