/**
 * Memory is bounded (DESIGN §7): agents idle past the TTL leave the worker's memory; their state stays
 * in the store and comes back with their next event, so the loop is still caught at the count of a
 * worker that never evicted.
 */
import type { Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { InMemoryAgentStateStore } from '@wayfinder/service-core';
import { DetectorWorker } from './detector-worker';

const policy = resolvePolicy({ profile: 'openclaw' });

function loop(agentId: string, calls: number): LocalizedStep[] {
  const out: LocalizedStep[] = [];
  let seq = 0;
  for (let i = 0; i < calls; i++) {
    for (const kind of ['action', 'observation'] as const) {
      const base = { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${seq}`, tenantId: 't1', agentId, taskId: 'x', runId: 'r', seq: seq++, ts: '2026-01-01T00:00:00.000Z' };
      const step: StepEvent = kind === 'action'
        ? { ...base, kind, action: { tool: 'read', args: { path: '/a' }, callId: `c${i}` } }
        : { ...base, kind, observation: { tool: 'read', callId: `c${i}`, ok: true, content: 'same' } };
      out.push({ schema: 'wayfinder.localized.v1', eventId: step.eventId, tenantId: 't1', ts: step.ts, step, position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' } });
    }
  }
  return out;
}

describe('idle agents', () => {
  it('are evicted past the TTL and restored on their next event with the same detection', async () => {
    let now = 0;
    const emitted: Deviation[] = [];
    const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
    const worker = new DetectorWorker(engine, new InMemoryAgentStateStore(), async (d) => void emitted.push(...d.flatMap((x) => x.deviations)), undefined, { idleTtlMs: 1_000, now: () => now });
    const steps = loop('a1', 12);
    await worker.handleBatch(steps.slice(0, 10));
    await worker.handleBatch(loop('a2', 1));
    expect(worker.states.size).toBe(2);
    now = 5_000;
    await worker.handleBatch(loop('a3', 1)); // a3 is fresh; a1 and a2 have been idle 5 s
    expect(await worker.states.evictIdle()).toBe(2);
    expect(worker.states.size).toBe(1);
    expect(engine.exportAgentState('t1', 'a1')).toBeUndefined();
    await worker.handleBatch(steps.slice(10));
    expect(emitted.filter((d) => d.agentId === 'a1' && d.detector === 'generic_repeat').map((d) => d.count)).toEqual([10]);
  });

  it('beyond the cap, the least recently used leave first', async () => {
    const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
    const worker = new DetectorWorker(engine, new InMemoryAgentStateStore(), async () => undefined, undefined, { maxAgents: 3 });
    for (let a = 0; a < 5; a++) await worker.handleBatch(loop(`cap-${a}`, 1));
    expect(worker.states.size).toBe(3);
    expect(engine.exportAgentState('t1', 'cap-0')).toBeUndefined();
    expect(engine.exportAgentState('t1', 'cap-4')).toBeDefined();
  });
});
