/**
 * A partition moves between detector workers mid-loop: the new owner restores the agent's state from the
 * store, catches the loop at the same count as a single worker would, and a redelivered batch yields
 * no second deviation.
 */
import type { Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import type { AgentRef, DetectorStateStore } from './detector-state.store';
import { DetectorWorker } from './detector-worker';

class MapStateStore implements DetectorStateStore {
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

const policy = resolvePolicy({ profile: 'openclaw' });

function worker(store: DetectorStateStore, sink: Deviation[]): DetectorWorker {
  return new DetectorWorker(new DetectionEngine({ policyFor: () => ({ policy }) }), store, async (d) => void sink.push(...d.flatMap((x) => x.deviations)));
}

/** The same read returning the same content: generic_repeat warns at the 11th call. */
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

describe('detector worker handover', () => {
  it('catches a loop that began on another worker at the same count, once', async () => {
    const steps = loop('a1', 12);
    const reference: Deviation[] = [];
    await worker(new MapStateStore(), reference).handleBatch(steps);
    const expected = reference.map((d) => [d.detector, d.level, d.count, d.atSeq]);
    expect(expected.length).toBeGreaterThan(0);

    const store = new MapStateStore();
    const emitted: Deviation[] = [];
    const first = worker(store, emitted);
    await first.handleBatch(steps.slice(0, 8)); // then the process dies; its partition moves
    const second = worker(store, emitted);
    await second.handleBatch(steps.slice(8, 16));
    await second.handleBatch(steps.slice(8, 16)); // redelivered: the commit did not happen
    await second.handleBatch(steps.slice(16));
    expect(emitted.map((d) => [d.detector, d.level, d.count, d.atSeq])).toEqual(expected);
  });

  it('reloads an agent whose state another worker wrote since it last saw it', async () => {
    const store = new MapStateStore();
    const emitted: Deviation[] = [];
    const a = worker(store, emitted);
    const b = worker(store, emitted);
    const steps = loop('a2', 12);
    await a.handleBatch(steps.slice(0, 10)); // a owns the partition
    await b.handleBatch(steps.slice(10, 18)); // it moved to b
    await a.handleBatch(steps.slice(18)); // and back to a, whose memory is stale
    const counts = emitted.filter((d) => d.detector === 'generic_repeat').map((d) => d.count);
    expect(counts).toEqual([10]);
  });

  it('starts an agent over when its stored state cannot be read, instead of failing the batch forever', async () => {
    const store = new MapStateStore();
    store.entries.set('t1/a3', { version: 5, state: new Uint8Array([1, 2, 3, 4, 5]) });
    const emitted: Deviation[] = [];
    const unreadable: AgentRef[] = [];
    const restarted = new DetectorWorker(new DetectionEngine({ policyFor: () => ({ policy }) }), store, async (d) => void emitted.push(...d.flatMap((x) => x.deviations)), (agent) => void unreadable.push(agent));
    await restarted.handleBatch(loop('a3', 12));
    expect(unreadable).toEqual([{ tenantId: 't1', agentId: 'a3' }]);
    // Detection started from an empty history: the loop is still caught, at the count a fresh agent has.
    expect(emitted.filter((d) => d.detector === 'generic_repeat').map((d) => d.count)).toEqual([10]);
    expect(store.entries.get('t1/a3')!.version).toBe(6);
  });
});
