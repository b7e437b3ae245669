/**
 * On the real Kafka broker and Redis, every service distributed: an agent calling a dangerous tool is
 * frozen; its escalation reaches the tenant's webhook (a local HTTP receiver) exactly once, although the
 * receiver's first answer is a 500 (its tenant's delivery lane retries with backoff; the receiver sees the same
 * Idempotency-Key twice and accepts it once). The history recorder stored the story in Redis; after a
 * restart of the services, steps published while they were down are recorded too (offsets after writes).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import Redis from 'ioredis';
import type { StepEvent, TaskSpec, TenantPolicy } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { tenantKey } from '@wayfinder/redis';
import { agentTimeline } from '@wayfinder/service-operations';
import { deleteTestTopics, requireKafka, uniqueTestName } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const name = uniqueTestName('notify');
const tenantId = `acme-${name}`;
const agentId = 'ops-bot';
const taskId = 'cleanup';
const redisUrl = process.env['WAYFINDER_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const step = (seq: number, tool: string): StepEvent => ({
  schema: 'wayfinder.step.v1', eventId: `${name}-${seq}`, tenantId, agentId, taskId, runId: null, ts: new Date().toISOString(), seq,
  kind: 'action', action: { tool, args: { target: `/srv/${seq}` }, callId: `c${seq}` },
});

describe('a frozen agent\'s escalation reaches the tenant\'s webhook once', () => {
  const prefix = `${name}.`;
  let brokers: string[];
  let running: RunningServices | undefined;
  let producer: KafkaBus;
  let redis: Redis;
  let receiver: Server;
  let receiverUrl = '';
  const received: Received[] = [];

  const config = () =>
    loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_REDIS_URL: redisUrl, WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: name, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' }); // the operator allows the local receiver

  beforeAll(async () => {
    brokers = await requireKafka();
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at ${redisUrl} (run npm run infra:up): ${error.message}`);
    });
    // The receiver fails its first request, then accepts; it remembers every request.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = received.length === 0 ? 500 : 200;
        received.push({ status, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/wayfinder`;
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    producer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: `${name}-producer` });
    running = await startServices(config(), { logger: false, notifierRetry: { initialBackoffMs: 200, maxBackoffMs: 1_000 } });
  });

  afterAll(async () => {
    await running?.stop();
    await producer?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
    if (redis) {
      const keys = [...(await redis.keys(`${tenantKey(tenantId)}:*`)), ...(await redis.keys(`wf:hist:${prefix}*`))];
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('posts the escalation once after a 500, and the history survives a restart', async () => {
    const policy: TenantPolicy = {
      schema: 'wayfinder.policy.v1', eventId: `policy-${name}`, tenantId, ts: new Date().toISOString(),
      policy: { constraints: { enabled: true, dangerousTools: ['drop_database'] } },
      webhook: { url: receiverUrl, format: 'pagerduty', routingKey: 'rk-123', secretHeader: { name: 'X-Wayfinder-Secret', value: 's3cret' } },
    };
    const task: TaskSpec = {
      schema: 'wayfinder.task.v1', eventId: `task-${name}`, tenantId, ts: new Date().toISOString(), taskId, goal: 'Clean up the staging servers',
      milestones: [{ id: 'clean', description: 'clean the staging servers', dependsOn: [], validator: { type: 'marker' } }],
    };
    const services = running!;
    await services.bus.publish('wayfinder.policies.v1', [policy]);
    await until('the tenant policy', () => services.policyBook.tenant(tenantId)?.webhook ? true : undefined);
    await services.bus.publish('wayfinder.tasks.v1', [task]);
    await until('the map', async () => (await services.mapStore.get(tenantId, taskId)) ?? undefined);
    await services.bus.publish('wayfinder.steps.v1', [step(0, 'list_servers'), step(1, 'drop_database')]);

    const accepted = await until('an accepted post', () => received.find((r) => r.status === 200));
    const escalation = await until('the escalation in the history', async () => (await services.history.tenantHistory(tenantId, { kinds: ['escalation'] }))[0]);
    if (escalation.kind !== 'escalation') throw new Error('not an escalation');
    expect(accepted.body).toMatchObject({ routing_key: 'rk-123', event_action: 'trigger', dedup_key: escalation.escalationId, payload: { severity: 'critical', source: `wayfinder/${tenantId}/${agentId}` } });
    expect(accepted.headers['idempotency-key']).toBe(escalation.escalationId);
    expect(accepted.headers['x-wayfinder-secret']).toBe('s3cret');
    // Give a duplicate every chance to arrive: none does.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(received.map((r) => [r.status, r.headers['idempotency-key']])).toEqual([
      [500, escalation.escalationId],
      [200, escalation.escalationId],
    ]);

    const timeline = await until('the frozen agent in the history', async () => {
      const t = await agentTimeline(services.history, tenantId, agentId);
      return t?.agent.state === 'frozen' ? t : undefined;
    });
    expect(timeline.deviations.map((d) => d.detector)).toContain('constraint_violation');
    expect(timeline.corrections.map((c) => [c.correction.action, c.outcome])).toEqual([['freeze', 'frozen']]);

    // Stop everything, publish while nothing runs, start again: the recorder picks up where it committed.
    await services.stop();
    running = undefined;
    await producer.publish('wayfinder.steps.v1', [step(2, 'list_servers'), step(3, 'list_servers')]);
    running = await startServices(config(), { logger: false });
    const restarted = running;
    const entry = await until('the steps published while stopped', async () => {
      const e = await restarted.history.agent(tenantId, agentId);
      return e && e.lastSeq === 3 ? e : undefined;
    });
    expect(entry.lastSeq).toBe(3);
    const steps = (await restarted.history.agentHistory(tenantId, agentId, { kinds: ['step'] })).map((r) => (r.kind === 'step' ? r.seq : -1));
    expect(steps).toEqual([0, 1, 2, 3]);
    expect(received.filter((r) => r.status === 200)).toHaveLength(1);
  });
});
