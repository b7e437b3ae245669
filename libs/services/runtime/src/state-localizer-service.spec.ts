/**
 * state-localizer on the in-process bus: steps are localized on their map; a step that arrives before
 * its map is held and localized when the map comes, or as unknown after the timeout — never dropped.
 */
import type { LocalizedStep, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from './runtime';
import { LOCALIZER_HOLD, StepHandler } from '@wayfinder/service-state-localizer';
import { until } from '@wayfinder/testing';

const ts = '2026-01-01T00:00:00.000Z';

function milestoneDone(tenantId: string, taskId: string, agentId: string, seq: number, id: string): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `${agentId}-${seq}`, tenantId, agentId, taskId, runId: 'r', seq, ts, kind: 'milestone', milestone: { id, status: 'done' } };
}

function task(tenantId: string, taskId: string): TaskSpec {
  return {
    schema: 'wayfinder.task.v1', eventId: `task-${taskId}`, tenantId, ts, taskId, goal: 'collect the data then write the report',
    milestones: [
      { id: 'collect', description: 'collect the data', dependsOn: [] },
      { id: 'write', description: 'write the report', dependsOn: ['collect'] },
    ],
  };
}


describe('state-localizer service', () => {
  let running: RunningServices;
  const localized: LocalizedStep[] = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.localized.v1', async (batch) => void localized.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    running = await startServices(loadConfig({ WAYFINDER_PIPELINE: 'separate' }, { services: 'task-parser,state-localizer' }), { bus, logger: false });
  });

  afterAll(() => running.stop());

  it('holds steps that arrive before their map and localizes them in order when it comes', async () => {
    await running.bus.publish('wayfinder.steps.v1', [milestoneDone('t1', 'early', 'a1', 1, 'collect'), milestoneDone('t1', 'early', 'a1', 2, 'write')]);
    await new Promise((r) => setTimeout(r, 50));
    expect(localized.filter((l) => l.step.taskId === 'early')).toEqual([]);
    await running.bus.publish('wayfinder.tasks.v1', [task('t1', 'early')]);
    await until(() => localized.filter((l) => l.step.taskId === 'early').length === 2);
    const positions = localized.filter((l) => l.step.taskId === 'early').map((l) => [l.step.seq, l.position.method, l.position.completed]);
    expect(positions).toEqual([
      [1, 'signal', ['collect']],
      [2, 'signal', ['collect', 'write']],
    ]);
  });

  it('localizes a step whose map never comes as unknown after the timeout', async () => {
    await running.bus.publish('wayfinder.steps.v1', [milestoneDone('t1', 'orphan', 'a2', 1, 'x')]);
    await new Promise((r) => setTimeout(r, 50));
    await running.get(StepHandler).sweep(Date.now() + LOCALIZER_HOLD.timeoutMs);
    await until(() => localized.some((l) => l.step.taskId === 'orphan'));
    expect(localized.find((l) => l.step.taskId === 'orphan')!.position).toMatchObject({ method: 'unknown', milestoneId: null });
    // The task waited out the timeout once: its later steps are not held again.
    await running.bus.publish('wayfinder.steps.v1', [milestoneDone('t1', 'orphan', 'a2', 2, 'x')]);
    await until(() => localized.some((l) => l.step.taskId === 'orphan' && l.step.seq === 2), 1_000);
  });

  it('never localizes one tenant’s steps on another tenant’s map of the same task id', async () => {
    await running.bus.publish('wayfinder.tasks.v1', [task('owner', 'shared-id')]);
    await new Promise((r) => setTimeout(r, 100));
    expect(await running.mapStore.get('owner', 'shared-id')).toBeDefined();
    await running.bus.publish('wayfinder.steps.v1', [milestoneDone('intruder', 'shared-id', 'a3', 1, 'collect')]);
    await new Promise((r) => setTimeout(r, 50));
    expect(localized.filter((l) => l.tenantId === 'intruder')).toEqual([]);
    await running.get(StepHandler).sweep(Date.now() + LOCALIZER_HOLD.timeoutMs);
    await until(() => localized.some((l) => l.tenantId === 'intruder'));
    expect(localized.find((l) => l.tenantId === 'intruder')!.position.method).toBe('unknown');
  });
});
