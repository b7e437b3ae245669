/**
 * The tenant's delegation graph moves between instances (navigator or detector worker) (restart, partition move): the
 * new owner restores it from the store and flags the cycle at the same count a single instance would;
 * tenants keep graphs of their own.
 */
import { DELEGATION_SCHEMA, type DelegationSignal, type Deviation } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { PolicyBook } from '@wayfinder/detection';
import type { AgentRef, AgentStateStore } from '../state/agent-state.store';
import { DELEGATION_GRAPH_REF, DelegationsHandler } from './delegations.handler';

class MapStateStore implements AgentStateStore {
  readonly entries = new Map<string, { version: number; state: Uint8Array }>();
  async versions(agents: readonly AgentRef[]) {
    return agents.map((a) => this.entries.get(`${a.tenantId}/${a.agentId}`)?.version ?? 0);
  }
  async load(agents: readonly AgentRef[]) {
    return agents.map((a) => this.entries.get(`${a.tenantId}/${a.agentId}`));
  }
  async save(writes: ReadonlyArray<AgentRef & { state: Uint8Array }>) {
    return writes.map((w) => {
      const version = (this.entries.get(`${w.tenantId}/${w.agentId}`)?.version ?? 0) + 1;
      this.entries.set(`${w.tenantId}/${w.agentId}`, { version, state: w.state.slice() });
      return version;
    });
  }
}

function handler(store: AgentStateStore, sink: Deviation[]): DelegationsHandler {
  const bus = { publish: async (_topic: string, events: Deviation[]) => void sink.push(...events) } as unknown as Bus;
  return new DelegationsHandler(bus, new PolicyBook(), store);
}

let n = 0;
function delegation(tenantId: string, from: string, to: string): DelegationSignal {
  n++;
  return { schema: DELEGATION_SCHEMA, eventId: `d${n}`, tenantId, ts: '2026-01-01T00:00:00.000Z', kind: 'delegation', agentId: from, taskId: 'pricing', runId: null, seq: n, stepEventId: `s${n}`, to };
}

describe('delegation graph handover between detector workers', () => {
  it('restores the tenant graph on the new owner and flags both agents at the fourth delegation', async () => {
    const store = new MapStateStore();
    const first: Deviation[] = [];
    await handler(store, first).onDelegations([delegation('acme', 'a', 'b'), delegation('acme', 'b', 'a'), delegation('acme', 'a', 'b')]);
    expect(first).toEqual([]);
    expect(store.entries.has(`acme/${DELEGATION_GRAPH_REF}`)).toBe(true);

    const second: Deviation[] = [];
    await handler(store, second).onDelegations([delegation('acme', 'b', 'a')]);
    expect(second.map((d) => [d.agentId, d.detector, d.count]).sort()).toEqual([
      ['a', 'cross_agent_cycle', 4],
      ['b', 'cross_agent_cycle', 4],
    ]);
  });

  it('keeps tenants apart in the store', async () => {
    const store = new MapStateStore();
    const sink: Deviation[] = [];
    await handler(store, sink).onDelegations([delegation('t1', 'a', 'b'), delegation('t2', 'b', 'a'), delegation('t1', 'a', 'b'), delegation('t2', 'b', 'a')]);
    await handler(store, sink).onDelegations([delegation('t1', 'a', 'b'), delegation('t2', 'b', 'a')]);
    expect(sink).toEqual([]);
    expect([...store.entries.keys()].sort()).toEqual([`t1/${DELEGATION_GRAPH_REF}`, `t2/${DELEGATION_GRAPH_REF}`]);
  });
});
