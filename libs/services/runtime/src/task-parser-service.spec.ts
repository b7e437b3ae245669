/** task-parser on the in-process bus: maps out, invalid tasks to the DLQ with a reason naming the problem. */
import { DLQ_HEADERS, type CognitiveMap, type TaskSpec } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from './runtime';
import { until } from '@wayfinder/testing';

const base = { schema: 'wayfinder.task.v1' as const, tenantId: 't1', ts: '2026-01-01T00:00:00.000Z' };


describe('task-parser service', () => {
  let running: RunningServices;
  const maps: CognitiveMap[] = [];
  const dlq: Array<{ value: string; headers: Record<string, string> }> = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.maps.v1', async (batch) => void maps.push(...batch.map((d) => d.payload)), { groupId: 'test' });
    bus.subscribeRaw('wayfinder.tasks.v1.dlq', async (batch) => void dlq.push(...batch.map((d) => ({ value: d.payload.toString('utf8'), headers: { ...d.headers } }))), { groupId: 'test' });
    running = await startServices(loadConfig({}, { services: 'task-parser' }), { bus, logger: false });
  });

  afterAll(() => running.stop());

  it('publishes the map of a valid task and stores it', async () => {
    const task: TaskSpec = { ...base, eventId: 'e1', taskId: 'etl', goal: '读取数据源 -> 清洗字段 -> 计算核心指标 -> 生成报告章节 -> 交叉复核' };
    await running.bus.publish('wayfinder.tasks.v1', [task]);
    await until(() => maps.some((m) => m.taskId === 'etl'));
    const map = maps.find((m) => m.taskId === 'etl')!;
    expect(map.milestones).toHaveLength(5);
    expect((await running.mapStore.get('t1', 'etl'))?.version).toBe(map.version);
  });

  it('gives a changed task the next map version and a redelivered one the same', async () => {
    const task: TaskSpec = { ...base, eventId: 'e2', taskId: 'versioned', goal: 'collect -> write' };
    await running.bus.publish('wayfinder.tasks.v1', [task, task, { ...task, eventId: 'e3', goal: 'collect -> check -> write' }]);
    await until(() => maps.filter((m) => m.taskId === 'versioned').length === 3);
    expect(maps.filter((m) => m.taskId === 'versioned').map((m) => m.version)).toEqual([1, 1, 2]);
  });

  it('dead-letters a task whose milestones form a cycle, naming the ids', async () => {
    const task: TaskSpec = {
      ...base, eventId: 'e4', taskId: 'cyclic', goal: 'g',
      milestones: [
        { id: 'fetch', description: 'fetch data', dependsOn: ['report'] },
        { id: 'report', description: 'write report', dependsOn: ['fetch'] },
      ],
    };
    await running.bus.publish('wayfinder.tasks.v1', [task]);
    await until(() => dlq.some((m) => m.value.includes('"cyclic"')));
    const letter = dlq.find((m) => m.value.includes('"cyclic"'))!;
    expect(letter.headers[DLQ_HEADERS.error]).toMatch(/cycle/);
    expect(letter.headers[DLQ_HEADERS.error]).toMatch(/fetch/);
    expect(letter.headers[DLQ_HEADERS.sourceTopic]).toBe('wayfinder.tasks.v1');
    expect(maps.some((m) => m.taskId === 'cyclic')).toBe(false);
  });

  it('dead-letters a task that fails the schema, with the field named', async () => {
    await running.bus.publishRaw('wayfinder.tasks.v1', 't1:bad', JSON.stringify({ ...base, eventId: 'e5', taskId: 'bad', goal: '' }));
    await until(() => dlq.some((m) => m.value.includes('"bad"')));
    expect(dlq.find((m) => m.value.includes('"bad"'))!.headers[DLQ_HEADERS.error]).toMatch(/goal/);
  });
});
