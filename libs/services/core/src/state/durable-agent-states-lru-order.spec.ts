/**
 * DurableAgentStates keeps its agents per tenant with links of their own for the least-recently-used
 * order (issue #14: no composite key or map churn per agent): the order is still global across tenants,
 * touching an agent makes it the newest, the same agent id in two tenants is two agents, and idle
 * eviction reads the right ages with a wall clock far from where the states started (offsets rebased).
 */
import { InMemoryAgentStateStore, type AgentRef } from './agent-state.store';
import { DurableAgentStates, type AgentStateHolder } from './durable-agent-states';

class Held implements AgentStateHolder {
  readonly agents = new Set<string>();
  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    return this.agents.has(`${tenantId}/${agentId}`) ? new Uint8Array([1]) : undefined;
  }
  importAgentState(tenantId: string, agentId: string): void {
    this.agents.add(`${tenantId}/${agentId}`);
  }
  forgetAgent(tenantId: string, agentId: string): void {
    this.agents.delete(`${tenantId}/${agentId}`);
  }
}

const ref = (tenantId: string, agentId: string): AgentRef => ({ tenantId, agentId });

async function touch(states: DurableAgentStates, held: Held, ...refs: AgentRef[]): Promise<void> {
  await states.run(refs, () => refs.forEach((r) => held.agents.add(`${r.tenantId}/${r.agentId}`)));
}

describe('DurableAgentStates order', () => {
  it('evicts beyond the cap least recently used first, across tenants, a touched agent last', async () => {
    const held = new Held();
    const states = new DurableAgentStates(held, new InMemoryAgentStateStore(), { maxAgents: 3 });
    await touch(states, held, ref('t1', 'a'));
    await touch(states, held, ref('t2', 'a'));
    await touch(states, held, ref('t1', 'b'));
    await touch(states, held, ref('t1', 'a'));
    expect(states.size).toBe(3);
    await touch(states, held, ref('t2', 'c'));
    expect([...held.agents].sort()).toEqual(['t1/a', 't1/b', 't2/c']);
    await touch(states, held, ref('t3', 'd'));
    expect([...held.agents].sort()).toEqual(['t1/a', 't2/c', 't3/d']);
    expect(states.size).toBe(3);
  });

  it('evicts by idle time with the clock far past where it started', async () => {
    const held = new Held();
    let now = 0;
    const states = new DurableAgentStates(held, new InMemoryAgentStateStore(), { idleTtlMs: 1_000, now: () => now });
    await touch(states, held, ref('t1', 'old'));
    now = 1_800_000_000_000; // a wall clock: far past the 2^30 ms the offsets hold
    await touch(states, held, ref('t1', 'a'), ref('t2', 'b'));
    now += 500;
    await touch(states, held, ref('t1', 'c'));
    expect(await states.evictIdle()).toBe(1);
    expect([...held.agents].sort()).toEqual(['t1/a', 't1/c', 't2/b']);
    now += 700;
    expect(await states.evictIdle()).toBe(2);
    expect([...held.agents]).toEqual(['t1/c']);
    now += 2 ** 31;
    expect(await states.evictIdle()).toBe(1);
    expect(states.size).toBe(0);
  });
});
