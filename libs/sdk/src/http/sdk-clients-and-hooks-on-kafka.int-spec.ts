/**
 * Issue #30 on the real Kafka broker and Redis (distributed mode, every service in this process): the
 * doors agents use without Python. (1) The TS SDK's HTTP client with a tenant key loops one failing call:
 * `onCorrection` delivers the hint, then the freeze, which `applyCorrection` throws as AgentFrozenError
 * saying how to resume; a restarted client (a new runId) is sent the standing freeze first and nothing
 * else of the earlier run. (2) Claude Code's hooks, for a session that posted no task, get the hint as
 * `additionalContext`; the hook steps on the topic are numbered 1, 2, 3… per session, by the Redis
 * counter every gateway instance shares (RedisStepSeqs), not from the clock.
 */
import Redis from 'ioredis';
import { deleteMatching, encodeKeyPart } from '@wayfinder/redis';
import type { Correction, StepEvent } from '@wayfinder/contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the test helpers
import { until } from '@wayfinder/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the SDK against the whole product on the broker
import { call, startGatewayOnKafka, type GatewayOnKafka } from '@wayfinder/service-runtime/testing';
import { AgentFrozenError, applyCorrection } from '../apply/apply-correction';
import { connectHttp } from '../connect';

const KEY = 'acme-sdk-hooks-kafka-key';
/** The pause between two steps, as a model's turn would make it (see gateway-llm-proxy-loop-corrected.int-spec.ts). */
const MODEL_LATENCY_MS = 300;

describe('the SDK client and the hooks on Kafka', () => {
  let kafka: GatewayOnKafka;
  let base: string;
  let prefix: string;
  let steps: StepEvent[];
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });

  beforeAll(async () => {
    await redis.connect();
    kafka = await startGatewayOnKafka('sdk-hooks', { WAYFINDER_API_KEYS: `acme:${KEY}` });
    ({ base, prefix, steps } = kafka);
  }, 120_000);

  afterAll(async () => {
    await kafka?.stop();
    if (prefix) await deleteMatching(redis, [`wf:*:step-seq*:${encodeKeyPart(prefix)}:*`]);
    await redis.quit();
  });

  it('the SDK client: hint, then a freeze that throws saying how to resume; a restarted client gets only the standing freeze', async () => {
    const client = connectHttp({ baseUrl: base, apiKey: KEY, agentId: 'sdk-looper', taskId: 'sdk-report', runId: 'run-1', batchSize: 2 });
    const received: Correction[] = [];
    client.onCorrection((c) => void received.push(c));
    for (let i = 0; i < 80 && !received.some((c) => c.action === 'freeze'); i++) {
      const callId = await client.action('read_file', { path: '/data/sales.csv' });
      await client.observation('read_file', { callId, error: 'EACCES: permission denied' });
      await client.flush();
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
    }
    await until(() => received.some((c) => c.action === 'freeze'), 30_000, 'the freeze');
    await client.close();
    expect(received[0].action).toBe('hint');
    const freeze = received.find((c) => c.action === 'freeze')!;
    let thrown: unknown;
    try {
      applyCorrection([{ role: 'user', content: 'Write the report.' }], freeze);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AgentFrozenError);
    expect((thrown as Error).message).toContain('npx wayfinder agent resume sdk-looper');

    const rerun = connectHttp({ baseUrl: base, apiKey: KEY, agentId: 'sdk-looper', taskId: 'sdk-report', runId: 'run-2' });
    const again: Correction[] = [];
    rerun.onCorrection((c) => void again.push(c));
    await until(() => again.length > 0, 10_000, "the rerun's standing freeze");
    await new Promise((r) => setTimeout(r, 500));
    await rerun.close();
    expect(again.map((c) => c.eventId)).toEqual([freeze.eventId]);
  }, 120_000);

  it('the hooks: a session with no task gets its hint, its steps numbered 1, 2, 3… by the shared Redis counter', async () => {
    const session = 'sess-kafka-hooks';
    let context: string | undefined;
    let hooks = 0;
    for (let n = 0; n < 40 && !context; n++) {
      const common = { session_id: session, cwd: '/work/repo', tool_name: 'Bash', tool_input: { command: 'cat data/sales.csv' }, tool_use_id: `toolu_${n}` };
      const pre = await call(base, 'POST', '/v1/hooks/pre-tool-use', { key: KEY, body: { ...common, hook_event_name: 'PreToolUse' } });
      const post = await call(base, 'POST', '/v1/hooks/post-tool-use', { key: KEY, body: { ...common, hook_event_name: 'PostToolUseFailure', error: 'cat: data/sales.csv: Permission denied' } });
      hooks += 2;
      expect([pre.status, post.status]).toEqual([200, 200]);
      context = pre.body.hookSpecificOutput?.additionalContext ?? post.body.hookSpecificOutput?.additionalContext;
      await new Promise((r) => setTimeout(r, MODEL_LATENCY_MS));
    }
    expect(context).toMatch(/^Wayfinder: \[Wayfinder\] .*`Bash`/);
    expect(context).not.toMatch(/milestone/);

    await until(() => steps.filter((s) => s.agentId === session).length >= hooks, 20_000, `the ${hooks} hook steps on the topic`);
    const seqs = steps.filter((s) => s.agentId === session).map((s) => s.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: hooks }, (_, i) => i + 1));
    expect(await redis.get(`wf:{acme}:step-seq:${encodeKeyPart(prefix)}:${session}:${session}`)).toBe(String(hooks));
  }, 120_000);
});
