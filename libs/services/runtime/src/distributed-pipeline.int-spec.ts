/**
 * The four services distributed on the real Kafka broker and Redis, as `wayfinder start --mode
 * distributed` runs them: a task and a looping agent go in, a hint comes back on the corrections topic;
 * the healthy agent next to it gets nothing.
 */
import type { Correction, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const ts = '2026-01-01T00:00:00.000Z';

function steps(agentId: string, looping: boolean): StepEvent[] {
  const out: StepEvent[] = [];
  let seq = 0;
  for (let i = 0; i < 6; i++) {
    const base = { schema: 'wayfinder.step.v1' as const, tenantId: 'acme', agentId, taskId: 'report', runId: 'r1', ts };
    const path = looping ? '/data/locked.csv' : `/data/part-${i}.csv`;
    out.push({ ...base, eventId: `${agentId}-${seq}`, seq: seq++, kind: 'action', action: { tool: 'read_file', args: { path }, callId: `c${i}` } });
    out.push({
      ...base, eventId: `${agentId}-${seq}`, seq: seq++, kind: 'observation',
      observation: looping ? { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } : { tool: 'read_file', callId: `c${i}`, ok: true, content: `rows of part ${i}: ${i * 7919}` },
    });
  }
  return out;
}


describe('distributed pipeline on Kafka and Redis', () => {
  const prefix = `${uniqueTestName('pipeline')}.`;
  let brokers: string[];
  let running: RunningServices;
  let observer: KafkaBus;
  const corrections: Correction[] = [];

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
    observer.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await observer.start();
    const config = loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_MEMORY_API_KEYS: JSON.stringify({ 'acme-key': 'acme' }) });
    running = await startServices(config, { logger: false });
  });

  afterAll(async () => {
    await running?.stop();
    await observer?.stop();
  });

  it('corrects the looping agent and leaves the healthy one alone', async () => {
    const task: TaskSpec = { schema: 'wayfinder.task.v1', eventId: 'task-1', tenantId: 'acme', ts, taskId: 'report', goal: 'read the sales data -> compute totals -> write the report' };
    await running.bus.publish('wayfinder.tasks.v1', [task]);
    await running.bus.publish('wayfinder.steps.v1', [...steps('looper', true), ...steps('healthy', false)]);
    await until(() => corrections.some((c) => c.agentId === 'looper'));
    const first = corrections.find((c) => c.agentId === 'looper')!;
    expect(first).toMatchObject({ tenantId: 'acme', taskId: 'report', severity: 'mild', action: 'hint' });
    expect(first.action === 'hint' && first.hint.text).toMatch(/read_file/);
    expect((await running.mapStore.get('acme', 'report'))?.milestones.length).toBe(3);
    // The memory service, co-located, kept the charter and answers over HTTP.
    const path = `${running.memory!.url}/v1/tenants/acme/agents/looper/tasks/report/context`;
    expect((await fetch(path)).status).toBe(401); // never open: the tenant's key is needed
    const context = await fetch(path, { headers: { authorization: 'Bearer acme-key' } });
    expect(context.status).toBe(200);
    expect(JSON.stringify(await context.json())).toContain('read the sales data');
    const ready = await fetch(`http://127.0.0.1:${running.health!.port}/health/ready`);
    expect(ready.status).toBe(200);
    // Give the healthy agent's steps time to go through every hop before asserting the negative.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(corrections.filter((c) => c.agentId === 'healthy')).toEqual([]);
  });
});
