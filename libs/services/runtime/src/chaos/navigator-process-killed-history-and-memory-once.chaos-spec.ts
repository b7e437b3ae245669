/**
 * Chaos (issues #17, #28): the navigator's process — the one-pass navigator, and the history recorder and
 * the memory service reading its localized steps in process — is SIGKILLed while steps flow, on the
 * real broker and Redis, and restarted. The steps' offsets are committed (kafkajs: every second) only
 * after every in-process reader's writes, so what was written but not committed is delivered again, and
 * both readers are idempotent: after the restart the history holds every step once, and the memory
 * service's contexts are those of a run that was never killed.
 */
import { createServer } from 'node:net';
import Redis from 'ioredis';
import type { StepEvent, TaskSpec } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { RedisHistoryStore, RedisMapStore } from '@wayfinder/redis';
import { Kafka, logLevel } from 'kafkajs';
import { chaosFigures, deleteTestTopics, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, type ServiceProcess } from '@wayfinder/testing';

const SERVICES = 'task-parser,navigator,history-recorder,memory-service';
const TENANT = 'chaos-navigator';
const AGENTS = 12;
const STEPS = 40;
const ROUND = 8;
const KEYS = { 'key-chaos': TENANT };
const ts = new Date().toISOString(); // the history keeps a retention window from now

function stepOf(agent: number, seq: number): StepEvent {
  const agentId = `agent-${agent}`;
  const call = Math.floor(seq / 2);
  const looping = seq >= 4 + (agent % 5) * 4 && agent % 3 === 0;
  const base = { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${seq}`, tenantId: TENANT, agentId, taskId: 'report', runId: 'r1', seq, ts };
  return seq % 2 === 0
    ? { ...base, kind: 'action', action: { tool: 'read_file', args: { path: looping ? '/data/locked.csv' : `/data/part-${call}.csv` }, callId: `c${call}` } }
    : { ...base, kind: 'observation', observation: looping ? { tool: 'read_file', callId: `c${call}`, ok: false, error: 'EACCES: permission denied' } : { tool: 'read_file', callId: `c${call}`, ok: true, content: `rows of part ${call}` } };
}

async function until(condition: () => Promise<boolean>, ms: number, what: string, pollMs = 200): Promise<void> {
  for (const started = Date.now(); !(await condition()); await new Promise((r) => setTimeout(r, pollMs))) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Outcome {
  historySteps: number;
  historyIds: string[];
  contexts: string[];
  /** Killed runs, per kill: steps the history held and the steps the navigator's group had committed. */
  atKill: Array<{ history: number; committed: number }>;
}

async function run(brokers: string[], redis: Redis, kill: boolean): Promise<Outcome> {
  const prefix = `${uniqueTestName(kill ? 'chaos-nav-kill' : 'chaos-nav-ref')}.`;
  await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 3 });
  const port = await freePort();
  const env = { WAYFINDER_PIPELINE: 'one-pass', WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_MEMORY_PORT: String(port), WAYFINDER_MEMORY_API_KEYS: JSON.stringify(KEYS) };
  const bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'chaos-nav-test' });
  await bus.start();
  const admin = new Kafka({ clientId: 'chaos-nav-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  const history = new RedisHistoryStore(redis, { namespace: prefix });
  const maps = new RedisMapStore(redis, { namespace: prefix });
  const agents = Array.from({ length: AGENTS }, (_, a) => `agent-${a}`);
  const historyIds = async () => (await Promise.all(agents.map(async (a) => (await history.agentHistory(TENANT, a, { kinds: ['step'], limit: 1_000 })).map((r) => r.id)))).flat();
  const committed = async () => {
    const [offsets] = await admin.fetchOffsets({ groupId: `${prefix}wayfinder.navigator`, topics: [`${prefix}wayfinder.steps.v1`] });
    return offsets.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
  };
  let service: ServiceProcess = startServiceProcess(SERVICES, env, kill ? 'chaos-nav-1' : 'chaos-nav-ref');
  const total = AGENTS * STEPS;
  const atKill: Outcome['atKill'] = [];
  let kills = 0;
  try {
    await service.ready;
    const task: TaskSpec = { schema: 'wayfinder.task.v1', eventId: 'task-report', tenantId: TENANT, ts, taskId: 'report', goal: 'read every part of the sales data -> compute totals -> write the report' };
    await bus.publish('wayfinder.tasks.v1', [task]);
    await until(async () => (await maps.get(TENANT, 'report')) !== undefined, 30_000, 'the map');
    for (let from = 0; from < STEPS; from += ROUND) {
      await bus.publish('wayfinder.steps.v1', Array.from({ length: AGENTS }, (_, a) => Array.from({ length: ROUND }, (_, i) => stepOf(a, from + i))).flat());
      if (kill && (from === ROUND || from === 3 * ROUND)) {
        // Mid-round: as soon as part of this round is recorded, whose offsets (committed at most every
        // second) are most likely not yet committed.
        await until(async () => (await historyIds()).length > from * AGENTS, 30_000, `round ${from / ROUND + 1} under way`, 5);
        service.child.kill('SIGKILL');
        await service.exited;
        atKill.push({ history: (await historyIds()).length, committed: await committed() });
        service = startServiceProcess(SERVICES, env, `chaos-nav-${2 + kills++}`);
        await service.ready;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    await until(async () => (await committed()) >= total, 90_000, 'every step committed');
    const ids = await historyIds();
    const contexts: string[] = [];
    for (const agentId of agents) {
      const response = await fetch(`http://127.0.0.1:${port}/v1/tenants/${TENANT}/agents/${agentId}/tasks/report/context`, { headers: { authorization: 'Bearer key-chaos' } });
      if (!response.ok) throw new Error(`context of ${agentId}: HTTP ${response.status} ${await response.text()}`);
      contexts.push(`${agentId} ${await response.text()}`);
    }
    return { historySteps: ids.length, historyIds: [...new Set(ids)].sort(), contexts, atKill };
  } catch (error) {
    throw new Error(`${(error as Error).message}\nservice log (tail):\n${service.log().slice(-3_000)}`);
  } finally {
    await stopServiceProcess(service);
    await bus.stop();
    await admin.disconnect().catch(() => undefined);
    await deleteTestTopics(brokers, prefix);
  }
}

describe('chaos: the navigator process killed while its in-process history and memory readers write', () => {
  it('records every step once, and the memory of a run that was never killed', async () => {
    const brokers = await requireKafka();
    const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    try {
      const reference = await run(brokers, redis, false);
      const killed = await run(brokers, redis, true);
      const total = AGENTS * STEPS;
      const redelivered = killed.atKill.reduce((n, k) => n + Math.max(0, k.history - k.committed), 0);
      chaosFigures('navigator process SIGKILL (history, memory in process)', {
        sent: total,
        processed: killed.historyIds.length,
        duplicated: killed.historySteps - killed.historyIds.length,
        lost: total - killed.historyIds.length,
        deadLettered: 0,
      });
      process.stdout.write(`at the kills: ${killed.atKill.map((k) => `${k.history} steps in the history, ${k.committed} committed`).join('; ')} (${redelivered} written but not committed, delivered again)\n`);
      // Killed twice mid-run: steps were not yet all committed either time.
      expect(killed.atKill).toHaveLength(2);
      for (const k of killed.atKill) expect(k.committed).toBeLessThan(total);
      expect(reference.historyIds).toHaveLength(total);
      expect(killed.historySteps).toBe(total);
      expect(killed.historyIds).toEqual(reference.historyIds);
      expect(killed.contexts).toEqual(reference.contexts);
      expect(reference.contexts.join('\n')).toContain('STATE');
    } finally {
      redis.disconnect();
    }
  }, 300_000);
});
