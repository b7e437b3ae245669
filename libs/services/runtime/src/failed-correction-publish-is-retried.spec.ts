/**
 * Loses nothing: when publishing a correction fails, the deviations batch is redelivered, and the
 * correction engine publishes the same correction (same event id) again instead of treating the
 * redelivered deviation as already handled.
 */
import type { Correction, PayloadOf, StepEvent, TaskSpec, TopicName } from '@wayfinder/contracts';
import { InProcessBus, type PublishOptions } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

/** The first publish of corrections fails, as a broker that is briefly unreachable would make it. */
class FirstCorrectionsPublishFails extends InProcessBus {
  failures = 0;
  override async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options?: PublishOptions): Promise<void> {
    if (topic === 'wayfinder.corrections.v1' && this.failures === 0) {
      this.failures++;
      throw new Error('broker unreachable');
    }
    return super.publish(topic, payloads, options);
  }
}

function loopSteps(agentId: string, calls: number): StepEvent[] {
  const steps: StepEvent[] = [];
  let seq = 0;
  for (let i = 0; i < calls; i++) {
    const base = { schema: 'wayfinder.step.v1' as const, tenantId: 'acme', agentId, taskId: 'report', runId: 'r1', ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString() };
    steps.push({ ...base, eventId: `${agentId}-${seq}`, seq: seq++, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${i}` } });
    steps.push({ ...base, eventId: `${agentId}-${seq}`, seq: seq++, kind: 'observation', observation: { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } });
  }
  return steps;
}

describe('a correction whose publish failed', () => {
  let running: RunningServices;
  const bus = new FirstCorrectionsPublishFails({ retry: { maxAttempts: 5, initialBackoffMs: 1, maxBackoffMs: 5 } });
  const corrections: Correction[] = [];

  beforeAll(async () => {
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'agent' });
    running = await startServices(loadConfig({}), { bus, logger: false });
  });

  afterAll(async () => {
    await running.stop();
  });

  it('is published on the redelivery, once the bus accepts it', async () => {
    const task: TaskSpec = { schema: 'wayfinder.task.v1', eventId: 'task-1', tenantId: 'acme', ts: '2026-01-01T00:00:00.000Z', taskId: 'report', goal: 'Read the sales data -> compute the totals -> write the report' };
    await running.bus.publish('wayfinder.tasks.v1', [task]);
    await running.bus.publish('wayfinder.steps.v1', loopSteps('agent-1', 8));
    await until(() => corrections.length > 0, 5_000, 'the correction after the failed publish');
    expect(bus.failures).toBe(1);
    expect(corrections[0]).toMatchObject({ agentId: 'agent-1', action: 'hint' });
    expect(new Set(corrections.map((c) => c.eventId)).size).toBe(corrections.length);
  });
});
