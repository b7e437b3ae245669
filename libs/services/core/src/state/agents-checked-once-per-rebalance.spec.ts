/**
 * DurableAgentStates following the bus's rebalances (DESIGN §7): an agent read or written since the last
 * rebalance is trusted as held (no version round trip before its batch); a rebalance makes every agent be
 * checked once more, so a state another instance wrote meanwhile is reloaded; without followRebalances
 * every batch checks.
 */
import type { AssignmentListener } from '@wayfinder/bus';
import { InMemoryAgentStateStore, type AgentRef } from './agent-state.store';
import { DurableAgentStates, type AgentStateHolder } from './durable-agent-states';

/** One counter per agent, as bytes. */
class Counters implements AgentStateHolder {
  readonly values = new Map<string, number>();
  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const v = this.values.get(`${tenantId}/${agentId}`);
    return v === undefined ? undefined : new TextEncoder().encode(String(v));
  }
  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    this.values.set(`${tenantId}/${agentId}`, Number(new TextDecoder().decode(state)));
  }
  forgetAgent(tenantId: string, agentId: string): void {
    this.values.delete(`${tenantId}/${agentId}`);
  }
  bump(a: AgentRef): void {
    const k = `${a.tenantId}/${a.agentId}`;
    this.values.set(k, (this.values.get(k) ?? 0) + 1);
  }
}

/** Counts the version checks the states make. */
class CountingStore extends InMemoryAgentStateStore {
  checked = 0;
  override async versions(agents: readonly AgentRef[]): Promise<number[]> {
    this.checked += agents.length;
    return super.versions(agents);
  }
}

function rebalancingBus() {
  const listeners: AssignmentListener[] = [];
  return {
    onAssignment: (l: AssignmentListener) => listeners.push(l),
    rebalance: () => listeners.forEach((l) => l('g', { 'wayfinder.steps.v1': [0] })),
  };
}

const a: AgentRef = { tenantId: 't', agentId: 'a' };

describe('durable agent states that follow rebalances', () => {
  it('check an agent once, then trust it until the next rebalance', async () => {
    const store = new CountingStore();
    const holder = new Counters();
    const states = new DurableAgentStates(holder, store);
    const bus = rebalancingBus();
    states.followRebalances(bus);
    for (let i = 0; i < 3; i++) await states.run([a], () => holder.bump(a));
    expect(store.checked).toBe(1);
    bus.rebalance();
    for (let i = 0; i < 3; i++) await states.run([a], () => holder.bump(a));
    expect(store.checked).toBe(2);
    expect(holder.values.get('t/a')).toBe(6);
  });

  it('reload after a rebalance what another instance wrote meanwhile', async () => {
    const store = new CountingStore();
    const mine = new Counters();
    const theirs = new Counters();
    const here = new DurableAgentStates(mine, store);
    const there = new DurableAgentStates(theirs, store);
    const bus = rebalancingBus();
    here.followRebalances(bus);
    await here.run([a], () => mine.bump(a)); // 1, written by this instance
    bus.rebalance(); // the partition moves to the other instance...
    await there.run([a], () => theirs.bump(a)); // 2 there
    await there.run([a], () => theirs.bump(a)); // 3 there
    bus.rebalance(); // ...and back
    await here.run([a], () => mine.bump(a));
    expect(mine.values.get('t/a')).toBe(4);
  });

  it('check before every batch when they do not follow rebalances', async () => {
    const store = new CountingStore();
    const holder = new Counters();
    const states = new DurableAgentStates(holder, store);
    for (let i = 0; i < 3; i++) await states.run([a], () => holder.bump(a));
    expect(store.checked).toBe(3);
  });

  it('ignore a bus without rebalances (in process): every batch checks', async () => {
    const store = new CountingStore();
    const holder = new Counters();
    const states = new DurableAgentStates(holder, store);
    states.followRebalances({});
    for (let i = 0; i < 2; i++) await states.run([a], () => holder.bump(a));
    expect(store.checked).toBe(2);
  });

  it('stop a member that missed the rebalance at its versioned write (a zombie)', async () => {
    const store = new CountingStore();
    const mine = new Counters();
    const theirs = new Counters();
    const zombie = new DurableAgentStates(mine, store);
    zombie.followRebalances(rebalancingBus()); // never told
    const owner = new DurableAgentStates(theirs, store);
    await zombie.run([a], () => mine.bump(a));
    await owner.run([a], () => theirs.bump(a));
    await expect(zombie.run([a], () => mine.bump(a))).rejects.toThrow(/changed under this instance/);
    expect(zombie.conflicts).toBe(1);
    await zombie.run([a], () => mine.bump(a)); // the retry reloads the owner's state
    expect(mine.values.get('t/a')).toBe(3);
  });
});
