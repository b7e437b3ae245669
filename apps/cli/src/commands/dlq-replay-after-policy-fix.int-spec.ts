/**
 * Acceptance (#13), on the real Kafka broker and Redis, the services distributed: a tenant's policy sends
 * its escalations to a webhook URL that answers 404, so the notifier dead-letters the escalation of a
 * frozen agent (its retries spent) to `wayfinder.escalations.v1.dlq`. `wayfinder dlq list` shows it with
 * source, attempts and error; after `wayfinder policy set` fixes the URL, `wayfinder dlq replay`
 * re-publishes it and the receiver gets it exactly once (the history holds one escalation); a second
 * replay sends nothing. Another tenant's dead letter on the same DLQ is neither listed nor replayed for
 * the first tenant's key. Policy and task go through the gateway with the CLI, as an operator does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import type { StepEvent } from '@wayfinder/contracts';
import { createTopics, readDeadLetters } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { tenantKey } from '@wayfinder/redis';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import { deleteTestTopics, requireKafka, uniqueTestName } from '@wayfinder/testing';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const name = uniqueTestName('dlqfix');
const prefix = `${name}.`;
const acme = `acme-${name}`;
const globex = `globex-${name}`;
const ACME_KEY = `acme-key-${name}`;
const GLOBEX_KEY = `globex-key-${name}`;
const redisUrl = process.env['WAYFINDER_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ESCALATIONS = 'wayfinder.escalations.v1';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const step = (tenantId: string, seq: number, tool: string): StepEvent => ({
  schema: 'wayfinder.step.v1', eventId: `${tenantId}-${seq}`, tenantId, agentId: 'ops-bot', taskId: 'cleanup', runId: null, ts: new Date().toISOString(), seq,
  kind: 'action', action: { tool, args: { target: `/srv/${seq}` }, callId: `c${seq}` },
});

describe('a dead-lettered escalation, replayed after the policy is fixed, is processed once', () => {
  let brokers: string[];
  let running: RunningServices | undefined;
  let redis: Redis;
  let receiver: Server;
  let hooks = '';
  const received: Received[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'wf-dlq-fix-'));
  const file = (fileName: string, body: unknown) => {
    const path = join(dir, fileName);
    writeFileSync(path, JSON.stringify(body));
    return path;
  };
  const saved: Record<string, string | undefined> = {};
  const env = (vars: Record<string, string>) => {
    for (const [k, v] of Object.entries(vars)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  };
  const cli = async (...argv: string[]) => {
    const io = captureIo();
    const code = await runCli(argv, io);
    return { code, out: io.out(), err: io.err() };
  };

  beforeAll(async () => {
    brokers = await requireKafka();
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at ${redisUrl} (run npm run infra:up): ${error.message}`);
    });
    // Only /hooks/right accepts; the policies first point at /hooks/wrong.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers });
        res.writeHead(req.url === '/hooks/right' ? 200 : 404).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hooks = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    const vars = {
      WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_REDIS_URL: redisUrl, WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: name,
      WAYFINDER_API_KEYS: `${acme}:${ACME_KEY},${globex}:${GLOBEX_KEY}`,
      // The operator allows the local webhook receiver (a tenant's policy may only name allowed destinations).
      WAYFINDER_EGRESS_ALLOW: '127.0.0.1',
    };
    env(vars); // the CLI's dlq commands read the same environment as an operator's shell
    const config = loadConfig({ ...vars, WAYFINDER_GATEWAY_PORT: '0', WAYFINDER_SERVICES: 'task-parser,state-localizer,detector-worker,correction-engine,gateway,history-recorder,escalation-notifier' });
    running = await startServices(config, { logger: false, notifierRetry: { maxAttempts: 2, initialBackoffMs: 100, maxBackoffMs: 200 } });
  });

  afterAll(async () => {
    await running?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (redis) {
      const keys = [...(await redis.keys(`${tenantKey(acme)}:*`)), ...(await redis.keys(`${tenantKey(globex)}:*`)), ...(await redis.keys(`wf:hist:${prefix}*`))];
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('lists the poison escalation, replays it once after policy set, and a second replay sends nothing', async () => {
    const services = running!;
    const gateway = ['--gateway', services.gateway!.url];
    const policy = (url: string) => ({ policy: { constraints: { enabled: true, dangerousTools: ['drop_database'] } }, webhook: { url, format: 'generic' } });
    const task = file('task.json', { taskId: 'cleanup', goal: 'Clean up the staging servers', milestones: [{ id: 'clean', description: 'clean the staging servers', dependsOn: [], validator: { type: 'marker' } }] });
    for (const [tenant, key] of [[acme, ACME_KEY], [globex, GLOBEX_KEY]]) {
      expect(await cli('policy', 'set', file(`broken-${tenant}.json`, policy(`${hooks}/wrong`)), ...gateway, '--key', key)).toMatchObject({ code: 0 });
      expect((await cli('task', 'submit', task, ...gateway, '--key', key)).out).toMatch(/^map \S+ of task cleanup/);
      await until(`the webhook of ${tenant}`, () => (services.policyBook.tenant(tenant)?.webhook ? true : undefined));
      await until(`the map of ${tenant}`, async () => (await services.mapStore.get(tenant, 'cleanup')) ?? undefined);
      await services.bus.publish('wayfinder.steps.v1', [step(tenant, 0, 'list_servers'), step(tenant, 1, 'drop_database')]);
    }

    // Both escalations are dead-lettered once the notifier's two attempts got 404s.
    const dead = await until('both dead letters', async () => {
      const all = await readDeadLetters({ brokers, topicPrefix: prefix, topic: ESCALATIONS });
      return all.length >= 2 ? all : undefined;
    });
    const mine = dead.find((d) => d.tenantId === acme)!;
    const theirs = dead.find((d) => d.tenantId === globex)!;
    expect(mine).toMatchObject({ sourceTopic: ESCALATIONS, attempts: 2, error: expect.stringMatching(/answered 404/) });
    expect(received.filter((r) => r.path === '/hooks/wrong').length).toBeGreaterThanOrEqual(4);

    const listed = await cli('dlq', 'list', ESCALATIONS, '--key', ACME_KEY);
    expect(listed.code).toBe(0);
    const rows = listed.out.trim().split('\n');
    expect(rows).toHaveLength(1);
    expect(rows[0].split('\t')).toEqual([
      `${mine.partition}/${mine.offset}`, mine.at, `${ESCALATIONS}/${mine.sourcePartition}/${mine.sourceOffset}`, 'attempts 2', `event ${mine.eventId}`, 'not replayed', expect.stringMatching(/^webhook http:\/\/127\.0\.0\.1:\d+\/… of tenant .* answered 404$/),
    ]);
    expect(listed.out).not.toContain(theirs.eventId as string);
    expect(listed.err).toBe(`1 dead letter(s) of tenant ${acme} on ${ESCALATIONS}.dlq\n`);
    const json = await cli('dlq', 'list', ESCALATIONS, '--key', GLOBEX_KEY, '--format', 'jsonl', '--since', '1h');
    expect(json.out.trim().split('\n').map((l) => JSON.parse(l).eventId)).toEqual([theirs.eventId]);
    expect((await cli('dlq', 'list', ESCALATIONS, '--key', ACME_KEY, '--since', new Date(Date.now() + 60_000).toISOString())).out).toBe('');

    // A replay before the fix would only fail again: fix the policy first, then replay.
    expect(await cli('policy', 'set', file('fixed.json', policy(`${hooks}/right`)), ...gateway, '--key', ACME_KEY)).toMatchObject({ code: 0 });
    await until('the fixed webhook', () => (services.policyBook.tenant(acme)?.webhook?.url.endsWith('/right') ? true : undefined));
    const replay = await cli('dlq', 'replay', ESCALATIONS, '--key', ACME_KEY);
    expect(replay).toMatchObject({ code: 0, out: `replayed ${mine.partition}/${mine.offset} event ${mine.eventId} to ${ESCALATIONS}\n` });
    expect(replay.err).toBe(`replayed 1 dead letter(s) of tenant ${acme} to ${ESCALATIONS}; 0 replayed before, 0 still invalid\n`);

    const accepted = await until('the replayed escalation at the fixed webhook', () => received.find((r) => r.path === '/hooks/right'));
    expect(accepted.headers['idempotency-key']).toBe(mine.eventId);
    await new Promise((r) => setTimeout(r, 2_000)); // every chance for a duplicate: none comes
    expect(received.filter((r) => r.path === '/hooks/right')).toHaveLength(1);
    const escalations = await services.history.tenantHistory(acme, { kinds: ['escalation'] });
    expect(escalations).toHaveLength(1);

    // The second replay sends nothing; the list says what was replayed; globex's dead letter is untouched.
    const again = await cli('dlq', 'replay', ESCALATIONS, '--key', ACME_KEY);
    expect(again).toMatchObject({ code: 0, out: '' });
    expect(again.err).toBe(`replayed 0 dead letter(s) of tenant ${acme} to ${ESCALATIONS}; 1 replayed before, 0 still invalid\n`);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(received.filter((r) => r.path === '/hooks/right')).toHaveLength(1);
    expect((await cli('dlq', 'list', ESCALATIONS, '--key', ACME_KEY)).out).toMatch(/\treplayed \d{4}-\d\d-\d\dT/);
    expect((await cli('dlq', 'list', ESCALATIONS, '--key', GLOBEX_KEY)).out).toContain('\tnot replayed\t');
    expect(received.filter((r) => r.path === '/hooks/right' && r.headers['idempotency-key'] === theirs.eventId)).toHaveLength(0);

    // A key nobody issued reads nothing.
    expect(await cli('dlq', 'list', ESCALATIONS, '--key', 'not-a-key-at-all')).toMatchObject({ code: 1, err: 'wayfinder dlq: the key is unknown or revoked\n' });
  });
});
