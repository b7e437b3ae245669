/**
 * Issue #29, a per-tenant bound on detection work: a tenant may allow 100,000 live delegation edges
 * (`crossAgent.maxEdgesPerTenant`), and each delegation signal searched the graph for a closing path by
 * scanning every edge once per node of a breadth-first search — a hub with 30,000 delegates made one
 * signal cost ~10^9 steps, holding the consumer whose partition other tenants share. Edges are now indexed
 * by both ends and one search looks at no more than MAX_SEARCHED edges: the hub's tenant gets its answers
 * (a direct cycle is still found at once), and another tenant's cycle beside it is still reported. (Before,
 * this spec did not finish.)
 */
import type { DelegationSignal, PolicySettings } from '@wayfinder/contracts';
import { DelegationGraph } from './delegation-graph';

const SETTINGS: PolicySettings['crossAgent'] = { enabled: true, warning: 2, critical: 4, sameTaskRepeat: 100, maxEdgesPerTenant: 100_000 };
let n = 0;
function delegation(tenantId: string, from: string, to: string): DelegationSignal {
  n++;
  return { schema: 'wayfinder.delegation.v1', eventId: `d${n}`, tenantId, ts: '2026-01-01T00:00:00Z', kind: 'delegation', agentId: from, taskId: 'job', runId: null, seq: n, stepEventId: `s${n}`, to };
}

describe('a tenant with a very wide delegation graph', () => {
  it('costs each signal a bounded search, finds direct cycles, and does not hide another tenant’s cycle', () => {
    const graph = new DelegationGraph();
    const LEAVES = 30_000;
    for (let i = 0; i < LEAVES; i++) expect(graph.onSignal(delegation('wide', 'hub', `leaf-${i}`), SETTINGS)).toEqual([]);
    // Agents the hub never reaches delegate to it: each search from the hub stops at its bound, no cycle.
    for (let i = 0; i < 1_000; i++) expect(graph.onSignal(delegation('wide', `outsider-${i}`, 'hub'), SETTINGS)).toEqual([]);
    // A leaf handing work back to the hub closes hub → leaf → hub: found directly, reported at the warning.
    expect(graph.onSignal(delegation('wide', 'leaf-29999', 'hub'), SETTINGS).map((d) => [d.tenantId, d.agentId, d.level])).toEqual([
      ['wide', 'leaf-29999', 'warning'],
      ['wide', 'hub', 'warning'],
    ]);
    // Another tenant's ping-pong, between the wide tenant's signals, is reported as always.
    graph.onSignal(delegation('small', 'a', 'b'), SETTINGS);
    const deviations = graph.onSignal(delegation('small', 'b', 'a'), SETTINGS);
    expect(deviations.map((d) => [d.tenantId, d.detector, d.level, d.evidence])).toEqual([
      ['small', 'cross_agent_cycle', 'warning', expect.objectContaining({ cycle: ['b', 'a', 'b'] })],
      ['small', 'cross_agent_cycle', 'warning', expect.objectContaining({ cycle: ['b', 'a', 'b'] })],
    ]);
    // The graph stays bounded by the tenant's own limit, and the export still holds every live edge.
    expect((graph.exportTenant('wide') as { edges: unknown[] }).edges).toHaveLength(LEAVES + 1_001);
  });
});
