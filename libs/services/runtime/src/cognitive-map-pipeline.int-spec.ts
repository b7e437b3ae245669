/**
 * task-parser and state-localizer distributed on the real Kafka broker and Redis: each task's map reaches
 * the maps topic and Redis; 50 agents on 5 tasks are localized step by step, their positions moving only
 * forward as milestone signals and validators fire; and the steps of a task sent before its TaskSpec are
 * held, then localized on the map when it comes — none dropped, none localized twice.
 */
import Redis from 'ioredis';
import type { CognitiveMap, LocalizedStep, Position, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { tenantKey } from '@wayfinder/redis';
import { deleteTestTopics, requireKafka, uniqueTestName } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const ts = '2026-01-01T00:00:00.000Z';
const ORDER = ['collect', 'totals', 'chart', 'write', 'publish'];
const TASKS = [0, 1, 2, 3, 4].map((i) => ({ tenantId: i % 2 === 0 ? 'acme' : 'globex', taskId: `report-${i}` }));
/** Its steps go out before its TaskSpec. */
const EARLY = TASKS[4];

function taskSpec({ tenantId, taskId }: (typeof TASKS)[number]): TaskSpec {
  return {
    schema: 'wayfinder.task.v1', eventId: `task-${taskId}`, tenantId, ts, taskId, goal: 'collect the sales data, total it, chart it, write and publish the report',
    // A diamond: totals and chart both follow collect, write needs both. collect and publish complete by signal only.
    milestones: [
      { id: 'collect', description: 'collect the sales data', dependsOn: [] },
      { id: 'totals', description: 'compute the totals', dependsOn: ['collect'], validator: { type: 'toolSucceeded', tool: 'sum' } },
      { id: 'chart', description: 'draw the chart', dependsOn: ['collect'], validator: { type: 'regex', pattern: 'chart saved', on: 'observation' } },
      { id: 'write', description: 'write the report', dependsOn: ['totals', 'chart'], validator: { type: 'toolSucceeded', tool: 'save' } },
      { id: 'publish', description: 'publish the report', dependsOn: ['write'] },
    ],
  };
}

type Body = Pick<StepEvent, 'kind'> & Record<string, unknown>;
type Expected = [milestoneId: string | null, completed: string[], method: Position['method']];

const act = (tool: string): Body => ({ kind: 'action', action: { tool, args: {} } });
const obs = (tool: string, ok: boolean, text: string): Body => ({ kind: 'observation', observation: ok ? { tool, ok, content: text } : { tool, ok, error: text } });
const signal = (id: string, status: 'started' | 'done'): Body => ({ kind: 'milestone', milestone: { id, status } });

/**
 * Three ways through the map, each step with the position expected after it. Step texts stay under the
 * localizer's 12-character minimum for similarity, so only signals and validators move the position and
 * every expectation is exact.
 */
const SCRIPTS: Array<Array<[Body, Expected]>> = [
  [ // in order
    [act('ls'), ['collect', [], 'unknown']],
    [signal('collect', 'done'), ['totals', ['collect'], 'signal']],
    [act('sum'), ['totals', ['collect'], 'signal']],
    [obs('sum', true, '42'), ['chart', ['collect', 'totals'], 'validator']],
    [act('plot'), ['chart', ['collect', 'totals'], 'validator']],
    [obs('plot', true, 'chart saved'), ['write', ['collect', 'totals', 'chart'], 'validator']],
    [act('save'), ['write', ['collect', 'totals', 'chart'], 'validator']],
    [obs('save', true, 'ok'), ['publish', ['collect', 'totals', 'chart', 'write'], 'validator']],
    [signal('publish', 'done'), [null, ORDER, 'signal']],
  ],
  [ // the other branch first; a stale signal for a milestone behind it changes nothing
    [signal('collect', 'done'), ['totals', ['collect'], 'signal']],
    [act('plot'), ['totals', ['collect'], 'signal']],
    [obs('plot', true, 'chart saved'), ['totals', ['collect', 'chart'], 'validator']],
    [signal('collect', 'started'), ['totals', ['collect', 'chart'], 'validator']],
    [obs('sum', true, '42'), ['write', ['collect', 'totals', 'chart'], 'validator']],
    [signal('write', 'done'), ['publish', ['collect', 'totals', 'chart', 'write'], 'signal']],
    [signal('publish', 'done'), [null, ORDER, 'signal']],
  ],
  [ // a validator far ahead completes everything it depends on; a failed call and a stale signal do not move it
    [act('ls'), ['collect', [], 'unknown']],
    [obs('save', true, 'ok'), ['publish', ['collect', 'totals', 'chart', 'write'], 'validator']],
    [obs('sum', false, 'timeout'), ['publish', ['collect', 'totals', 'chart', 'write'], 'validator']],
    [signal('totals', 'done'), ['publish', ['collect', 'totals', 'chart', 'write'], 'validator']],
  ],
];

/** Agent i works on task i % 5 along script i % 3, so every task sees every script. */
const AGENTS = Array.from({ length: 50 }, (_, i) => ({ agentId: `agent-${i}`, ...TASKS[i % 5], script: SCRIPTS[i % 3] }));

function stepsOf(agent: (typeof AGENTS)[number]): StepEvent[] {
  return agent.script.map(([body], i) => ({
    schema: 'wayfinder.step.v1', eventId: `${agent.agentId}-${i + 1}`, tenantId: agent.tenantId, agentId: agent.agentId, taskId: agent.taskId, runId: 'r1', seq: i + 1, ts, ...body,
  }) as StepEvent);
}

/** Forward along the DAG: nothing completed is ever lost, and the current milestone never goes back in topological order. */
function expectMovesForward(positions: Position[]): void {
  const rank = (p: Position) => (p.milestoneId === null ? ORDER.length : ORDER.indexOf(p.milestoneId));
  for (let i = 1; i < positions.length; i++) {
    expect(positions[i].completed).toEqual(expect.arrayContaining(positions[i - 1].completed));
    expect(rank(positions[i])).toBeGreaterThanOrEqual(rank(positions[i - 1]));
  }
}

async function until(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('cognitive-map pipeline on Kafka and Redis', () => {
  const prefix = `${uniqueTestName('cogmap')}.`;
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  let brokers: string[];
  let running: RunningServices;
  let observer: KafkaBus;
  const maps: CognitiveMap[] = [];
  const localized: LocalizedStep[] = [];
  const mapKey = (t: (typeof TASKS)[number]) => tenantKey(t.tenantId, 'map', prefix, t.taskId);

  beforeAll(async () => {
    brokers = await requireKafka();
    await redis.connect();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 3 });
    observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
    observer.subscribe('wayfinder.maps.v1', async (batch) => void maps.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    observer.subscribe('wayfinder.localized.v1', async (batch) => void localized.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await observer.start();
    const config = loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_PIPELINE: 'separate', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix }, { services: 'task-parser,state-localizer' });
    running = await startServices(config, { logger: false });
  });

  afterAll(async () => {
    await running?.stop();
    await observer?.stop();
    if (redis.status === 'ready') {
      await redis.del(...TASKS.map(mapKey));
      await redis.quit();
    }
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('publishes and stores each map, then localizes every step of 50 agents once, forward only, including steps sent before their task', async () => {
    const onTime = TASKS.filter((t) => t !== EARLY);
    await running.bus.publish('wayfinder.tasks.v1', onTime.map(taskSpec));
    await until(() => maps.length >= onTime.length, 'the maps of the first four tasks');
    for (const t of onTime) {
      const published = maps.find((m) => m.tenantId === t.tenantId && m.taskId === t.taskId);
      expect(published?.milestones.map((m) => [m.id, m.validator.type])).toEqual([
        ['collect', 'marker'], ['totals', 'toolSucceeded'], ['chart', 'regex'], ['write', 'toolSucceeded'], ['publish', 'marker'],
      ]);
      expect(await running.mapStore.get(t.tenantId, t.taskId)).toEqual(published);
      expect(JSON.parse((await redis.hget(mapKey(t), 'map')) ?? 'null')).toMatchObject({ taskId: t.taskId, tenantId: t.tenantId, version: 1 });
    }

    const early = AGENTS.filter((a) => a.taskId === EARLY.taskId);
    const onTimeAgents = AGENTS.filter((a) => a.taskId !== EARLY.taskId);
    await running.bus.publish('wayfinder.steps.v1', early.flatMap(stepsOf));
    await running.bus.publish('wayfinder.steps.v1', onTimeAgents.flatMap(stepsOf));
    const onTimeCount = onTimeAgents.reduce((n, a) => n + a.script.length, 0);
    await until(() => localized.filter((l) => l.step.taskId !== EARLY.taskId).length >= onTimeCount, 'the steps of the tasks with a map');
    // Well inside the 5 s hold: the early steps wait for their map rather than going out as unknown.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(localized.filter((l) => l.step.taskId === EARLY.taskId)).toEqual([]);
    expect(await running.mapStore.get(EARLY.tenantId, EARLY.taskId)).toBeUndefined();

    await running.bus.publish('wayfinder.tasks.v1', [taskSpec(EARLY)]);
    const total = AGENTS.reduce((n, a) => n + a.script.length, 0);
    await until(() => localized.length >= total, 'every step to be localized');
    expect((await running.mapStore.get(EARLY.tenantId, EARLY.taskId))?.version).toBe(1);
    // Let any duplicate or stray delivery arrive before asserting "exactly once".
    await new Promise((r) => setTimeout(r, 1_000));

    expect(localized).toHaveLength(total);
    for (const agent of AGENTS) {
      const mine = localized.filter((l) => l.tenantId === agent.tenantId && l.step.agentId === agent.agentId);
      expect(mine.map((l) => l.step)).toEqual(stepsOf(agent));
      expect(mine.map((l): Expected => [l.position.milestoneId, l.position.completed, l.position.method])).toEqual(agent.script.map(([, e]) => e));
      expectMovesForward(mine.map((l) => l.position));
    }
  });
});
