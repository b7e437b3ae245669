/**
 * The whole pipeline embedded (in-process bus, in-memory stores): a task and a looping agent go in,
 * a map, localized steps, deviations and a correction come out; another tenant's agent doing the same
 * under a lenient policy is not corrected at the same count.
 */
import type { Correction, Deviation, StepEvent, TaskSpec, TenantPolicy } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from './runtime';
import { until } from '@wayfinder/testing';

function loopSteps(tenantId: string, agentId: string, calls: number): StepEvent[] {
  const steps: StepEvent[] = [];
  let seq = 0;
  for (let i = 0; i < calls; i++) {
    const base = { schema: 'wayfinder.step.v1' as const, tenantId, agentId, taskId: 'report', runId: 'r1', ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString() };
    steps.push({ ...base, eventId: `${agentId}-${seq}`, seq: seq++, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${i}` } });
    steps.push({ ...base, eventId: `${agentId}-${seq}`, seq: seq++, kind: 'observation', observation: { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } });
  }
  return steps;
}


describe('embedded pipeline', () => {
  let running: RunningServices;
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    running = await startServices(loadConfig({}), { bus, logger: false });
  });

  afterAll(async () => {
    await running.stop();
  });

  it('turns a task into a map and a looping agent into deviations and a correction, per tenant policy', async () => {
    const lenient: TenantPolicy = {
      schema: 'wayfinder.policy.v1', eventId: 'p1', tenantId: 'calm', ts: '2026-01-01T00:00:00.000Z',
      policy: { loop: { errorRepeatWarning: 50, errorRepeatCritical: 80 }, nearDuplicate: { enabled: false } },
    };
    await running.bus.publish('wayfinder.policies.v1', [lenient]);
    const task = (tenantId: string): TaskSpec => ({
      schema: 'wayfinder.task.v1', eventId: `task-${tenantId}`, tenantId, ts: '2026-01-01T00:00:00.000Z', taskId: 'report',
      goal: 'Read the sales data -> compute the totals -> write the report',
    });
    await running.bus.publish('wayfinder.tasks.v1', [task('busy'), task('calm')]);
    await until(() => running.policyBook.policyOf('calm', 'report', 'a').loop.errorRepeatWarning === 50);
    await running.bus.publish('wayfinder.steps.v1', loopSteps('busy', 'agent-1', 8));
    await running.bus.publish('wayfinder.steps.v1', loopSteps('calm', 'agent-1', 8));

    await until(() => corrections.some((c) => c.tenantId === 'busy'));
    expect(await running.mapStore.get('busy', 'report')).toMatchObject({ taskId: 'report', tenantId: 'busy' });
    const busy = deviations.filter((d) => d.tenantId === 'busy');
    expect(busy.map((d) => d.detector)).toContain('error_repeat');
    expect(busy[0].loopStartSeq).toBeLessThan(busy[0].atSeq);
    const correction = corrections.find((c) => c.tenantId === 'busy')!;
    expect(correction).toMatchObject({ agentId: 'agent-1', severity: 'mild', action: 'hint' });
    expect(deviations.filter((d) => d.tenantId === 'calm' && d.detector === 'error_repeat')).toEqual([]);
    expect(corrections.filter((c) => c.tenantId === 'calm')).toEqual([]);
  });
});
