/**
 * A batch whose publish fails is retried from the state the store holds, not from the state the failed
 * attempt left in memory: the retry publishes the same deviations (same eventIds) instead of skipping
 * the steps as already applied and losing them.
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

describe('a batch whose publish failed', () => {
  it('is retried from the stored state and publishes the same deviations', async () => {
    const emitted: Deviation[] = [];
    let failNext = false;
    const worker = new DetectorWorker(new DetectionEngine({ policyFor: () => ({ policy }) }), new InMemoryAgentStateStore(), async (d) => {
      if (failNext) {
        failNext = false;
        throw new Error('broker unreachable');
      }
      emitted.push(...d.flatMap((x) => x.deviations));
    });
    const steps = loop('a1', 12);
    await worker.handleBatch(steps.slice(0, 16));
    failNext = true;
    await expect(worker.handleBatch(steps.slice(16))).rejects.toThrow('broker unreachable');
    await worker.handleBatch(steps.slice(16)); // the bus retries the batch
    const reference: Deviation[] = [];
    await new DetectorWorker(new DetectionEngine({ policyFor: () => ({ policy }) }), undefined, async (d) => void reference.push(...d.flatMap((x) => x.deviations))).handleBatch(steps);
    expect(reference.length).toBeGreaterThan(0);
    expect(emitted.map((d) => d.eventId)).toEqual(reference.map((d) => d.eventId));
  });
});
