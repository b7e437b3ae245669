/**
 * Versioned writes (DESIGN §7): two workers share one store, as two instances share Redis. Worker A
 * handles an agent, its partition moves to worker B, which handles it further; A still holds the old
 * state (a batch in flight when the partition was revoked, a stale instance). A's write is refused (the
 * stored version is not the one A read): counted, the agent dropped from A's memory, the batch rejected —
 * and its retry restores B's newer state, so the loop count continues from B's instead of going back.
 * Also: a tenant's own idle TTL (policy `stateIdleTtlMs`) evicts its agents while another tenant's stay,
 * and revoked partitions are written back and dropped.
 */
import type { Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { AgentStateConflict, InMemoryAgentStateStore } from '@wayfinder/service-core';
import { DetectorWorker } from './detector-worker';

const policy = resolvePolicy({ profile: 'openclaw' });

function polls(tenantId: string, agentId: string, from: number, calls: number): LocalizedStep[] {
  const out: LocalizedStep[] = [];
  for (let i = from; i < from + calls; i++) {
    for (const kind of ['action', 'observation'] as const) {
      const seq = i * 2 + (kind === 'action' ? 0 : 1);
      const base = { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${seq}`, tenantId, agentId, taskId: 'x', runId: 'r', seq, ts: '2026-01-01T00:00:00.000Z' };
      const step: StepEvent = kind === 'action'
        ? { ...base, kind, action: { tool: 'read', args: { path: '/a' }, callId: `c${i}` } }
        : { ...base, kind, observation: { tool: 'read', callId: `c${i}`, ok: true, content: 'same' } };
      out.push({ schema: 'wayfinder.localized.v1', eventId: step.eventId, tenantId, ts: step.ts, step, position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' } });
    }
  }
  return out;
}

function worker(store: InMemoryAgentStateStore, emitted: Deviation[], options: ConstructorParameters<typeof DetectorWorker>[4] = {}): DetectorWorker {
  return new DetectorWorker(new DetectionEngine({ policyFor: () => ({ policy }) }), store, async (d) => void emitted.push(...d.flatMap((x) => x.deviations)), undefined, options);
}

describe('versioned per-agent state', () => {
  it('refuses the write of a stale worker, counts it, and the retry continues from the newer state', async () => {
    const store = new InMemoryAgentStateStore();
    const fromA: Deviation[] = [];
    const fromB: Deviation[] = [];
    const conflicts: string[] = [];
    const b = worker(store, fromB);
    // While A's batch is in flight (restored, not yet written), the partition moves and B handles the agent.
    let meanwhile: (() => Promise<unknown>) | undefined;
    const a = new DetectorWorker(new DetectionEngine({ policyFor: () => ({ policy }) }), store, async (d) => void fromA.push(...d.flatMap((x) => x.deviations)), undefined, { onConflict: (agents) => conflicts.push(...agents.map((x) => x.agentId)) }, async () => {
      const run = meanwhile;
      meanwhile = undefined;
      if (run) await run();
    });
    const ref = { tenantId: 't1', agentId: 'a:1' };

    await a.handleBatch(polls('t1', 'a:1', 0, 4)); // version 1, A holds it
    meanwhile = () => b.handleBatch(polls('t1', 'a:1', 4, 4)); // B restores version 1, writes version 2
    // A applies its batch to the state it read (4 calls, not B's 8) and writes over version 1: refused.
    await expect(a.handleBatch(polls('t1', 'a:1', 8, 3))).rejects.toBeInstanceOf(AgentStateConflict);
    expect(a.states.conflicts).toBe(1);
    expect(conflicts).toEqual(['a:1']);
    expect(store.peek(ref)?.version).toBe(2);
    expect(a.engine.exportAgentState('t1', 'a:1')).toBeUndefined();

    // The bus retries the batch: A restores B's version and continues from its 8 calls.
    await a.handleBatch(polls('t1', 'a:1', 8, 3));
    expect(store.peek(ref)?.version).toBe(3);
    const reference = new DetectionEngine({ policyFor: () => ({ policy }) });
    const expected = polls('t1', 'a:1', 0, 11).flatMap((l) => reference.onStep(l.step));
    expect(expected.length).toBeGreaterThan(0);
    expect([...fromB, ...fromA].map((d) => d.eventId)).toEqual(expected.map((d) => d.eventId));
  });

  it('evicts each tenant’s idle agents after its own TTL from the policy; the durable copy brings them back', async () => {
    let now = 0;
    const store = new InMemoryAgentStateStore();
    const emitted: Deviation[] = [];
    const ttl: Record<string, number> = { quick: 1_000 };
    const w = worker(store, emitted, { idleTtlMs: 60_000, idleTtlFor: (tenantId) => ttl[tenantId], now: () => now });
    await w.handleBatch(polls('quick', 'q1', 0, 6));
    await w.handleBatch(polls('slow', 's1', 0, 6));
    now = 5_000;
    expect(await w.states.evictIdle()).toBe(1);
    expect(w.engine.exportAgentState('quick', 'q1')).toBeUndefined();
    expect(w.engine.exportAgentState('slow', 's1')).toBeDefined();
    await w.handleBatch(polls('quick', 'q1', 6, 5));
    expect(emitted.filter((d) => d.agentId === 'q1' && d.detector === 'generic_repeat').map((d) => d.count)).toEqual([10]);
    now = 70_000;
    expect(await w.states.evictIdle()).toBe(2);
  });

  it('writes back and drops the agents of revoked partitions only', async () => {
    const store = new InMemoryAgentStateStore();
    const w = worker(store, []);
    await w.handleBatch(polls('t', 'p0', 0, 2), 0);
    await w.handleBatch(polls('t', 'p1', 0, 2), 1);
    expect(await w.states.dropPartitions([1])).toBe(1);
    expect(w.engine.exportAgentState('t', 'p1')).toBeUndefined();
    expect(w.engine.exportAgentState('t', 'p0')).toBeDefined();
    expect(store.peek({ tenantId: 't', agentId: 'p1' })?.version).toBe(1);
    // Back on this worker later: restored on its next event from what was written.
    await w.handleBatch(polls('t', 'p1', 2, 1), 1);
    expect(store.peek({ tenantId: 't', agentId: 'p1' })?.version).toBe(2);
  });
});
