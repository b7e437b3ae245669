/**
 * `wayfinder bench gateway`: the gateway over HTTP, with every service behind it (embedded, or on Kafka
 * and Redis with --kafka):
 * - ingest: step events/s posted as batches of 100 (several requests in flight), against the same events
 *   published straight on the bus in the same run (the baseline, so the ratio is what HTTP adds);
 * - latency: looping agents post one call at a time; step → correction received over SSE, and how much
 *   of that the gateway adds over the moment the correction reached the corrections topic.
 * With --streams N (runGatewayStreamsBench), fairness instead (issue #29): one tenant opens N correction
 * streams while another tenant's requests are timed before and while they are open; the streams past the
 * per-tenant cap (WAYFINDER_MAX_STREAMS_PER_TENANT) are answered 429 with Retry-After.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { createTopics, InProcessBus, KafkaBus, type Bus } from '@wayfinder/bus';
import { loadConfig, type WayfinderConfig } from '@wayfinder/config';
import type { StepEvent } from '@wayfinder/contracts';
import { startServices } from '@wayfinder/service-runtime';

export interface GatewayBenchOptions {
  /** Distributed on these brokers (and Redis from WAYFINDER_REDIS_URL); embedded when absent. */
  brokers?: string[];
  events: number;
  agents: number;
  concurrency: number;
}

const KEY = 'bench-gateway-key';
const BATCH = 100;

export async function runGatewayBench(options: GatewayBenchOptions, log: (line: string) => void): Promise<Record<string, unknown>> {
  const prefix = options.brokers ? `bench-gw-${Date.now().toString(36)}.` : '';
  const env: Record<string, string> = { WAYFINDER_API_KEYS: `bench:${KEY}`, WAYFINDER_GATEWAY_PORT: '0', WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND: '1000000', WAYFINDER_INGEST_MAX_BURST: '1000000' };
  let observer: Bus;
  let ownBus: InProcessBus | undefined;
  if (options.brokers) {
    await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: 6 });
    Object.assign(env, { WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: options.brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: `${prefix}wf`, WAYFINDER_REDIS_URL: process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379' });
    observer = new KafkaBus({ brokers: options.brokers, topicPrefix: prefix, clientId: 'bench-observer' });
  } else {
    ownBus = new InProcessBus({ queueCapacity: 8192 });
    observer = ownBus;
  }
  const onBus = new Map<string, number>();
  observer.subscribe('wayfinder.corrections.v1', async (batch) => void batch.forEach((d) => onBus.has(d.payload.eventId) || onBus.set(d.payload.eventId, performance.now())), { groupId: `${prefix}bench-observer` });
  if (options.brokers) await observer.start();
  const config: WayfinderConfig = { ...loadConfig(env), workingDir: mkdtempSync(join(tmpdir(), 'wf-bench-gw-')) };
  const running = await startServices(config, { logger: false, ...(ownBus && { bus: ownBus }) });
  const base = running.gateway!.url;
  try {
    // A high ingest limit: the benchmark measures the door, not the limit.
    await post(base, 'PUT', '/v1/policy', { policy: {}, ingest: { eventsPerSecond: 1_000_000, burst: 1_000_000 } });
    log(`ingest: ${options.events} events, batches of ${BATCH}, ${options.concurrency} requests in flight`);
    const onBusOnly = (batch: Array<Record<string, unknown>>) => running.bus.publish('wayfinder.steps.v1', batch.map(fill));
    const overHttp = async (batch: Array<Record<string, unknown>>) => {
      const answer = await post(base, 'POST', '/v1/steps', batch);
      if (answer.accepted !== batch.length) throw new Error(`gateway accepted ${answer.accepted} of ${batch.length}`);
    };
    // A warm-up (discarded), then bus and HTTP alternated twice: the machine's noise and the pipeline's
    // warm-up fall on both sides of the ratio.
    await measure(Math.min(options.events, 5_000), options.concurrency, overHttp);
    const baselines: number[] = [];
    const https: number[] = [];
    for (let round = 0; round < 2; round++) {
      baselines.push(await measure(options.events, options.concurrency, onBusOnly));
      https.push(await measure(options.events, options.concurrency, overHttp));
    }
    const baseline = Math.round((baselines[0] + baselines[1]) / 2);
    const http = Math.round((https[0] + https[1]) / 2);
    log(`latency: ${options.agents} looping agents over SSE (after one warm-up agent, once the ingest backlog drained)`);
    await new Promise((r) => setTimeout(r, 3_000));
    await measureLatency(base, 1, onBus);
    const latency = await measureLatency(base, options.agents, onBus);
    return {
      mode: options.brokers ? 'distributed' : 'embedded',
      ingest: { batchSize: BATCH, httpEventsPerSec: http, busEventsPerSec: baseline, httpOverBus: round(http / baseline, 3), runs: { http: https, bus: baselines } },
      latency,
    };
  } finally {
    await running.stop();
    if (options.brokers) {
      await observer.stop();
      await deleteTopics(options.brokers, prefix);
    }
  }
}

export interface GatewayStreamsBenchOptions {
  brokers?: string[];
  /** Correction streams the noisy tenant opens. */
  streams: number;
  /** Requests of the quiet tenant timed before, and again while the streams are open. */
  requests: number;
}

const NOISY_KEY = 'bench-noisy-key';
const QUIET_KEY = 'bench-quiet-key';

/**
 * Tenant `noisy` opens `streams` SSE correction streams at once (as ~20,000 did in issue #29, exhausting the
 * process's descriptors for every tenant); tenant `quiet` posts a 10-step batch and reads one agent's
 * timeline, one request at a time, before and while the streams are open. The caps are the operator's
 * (WAYFINDER_MAX_STREAMS_PER_TENANT / WAYFINDER_MAX_STREAMS from the environment, else their defaults).
 */
export async function runGatewayStreamsBench(options: GatewayStreamsBenchOptions, log: (line: string) => void): Promise<Record<string, unknown>> {
  const prefix = options.brokers ? `bench-gws-${Date.now().toString(36)}.` : '';
  const env: Record<string, string> = { ...pick(process.env, ['WAYFINDER_MAX_STREAMS_PER_TENANT', 'WAYFINDER_MAX_STREAMS']), WAYFINDER_API_KEYS: `noisy:${NOISY_KEY},quiet:${QUIET_KEY}`, WAYFINDER_GATEWAY_PORT: '0' };
  if (options.brokers) {
    await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: 6 });
    Object.assign(env, { WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: options.brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: `${prefix}wf`, WAYFINDER_REDIS_URL: process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379' });
  }
  const config: WayfinderConfig = { ...loadConfig(env), workingDir: mkdtempSync(join(tmpdir(), 'wf-bench-gws-')) };
  const running = await startServices(config, { logger: false });
  if (!running.gateway) throw new Error('the services started without a gateway');
  const base = running.gateway.url;
  const open: AbortController[] = [];
  try {
    /** The quiet tenant's requests, one at a time: their times, and how many failed (refused, or no socket left). */
    const quiet = async () => {
      const run = randomUUID().slice(0, 8);
      const times: number[] = [];
      let failed = 0;
      for (let i = 0; i < options.requests; i++) {
        const agentId = `quiet-${run}-${i % 20}`;
        const started = performance.now();
        try {
          await post(base, 'POST', '/v1/steps', Array.from({ length: 10 }, (_, s) => ({ agentId, taskId: 'bench', runId: run, seq: Math.floor(i / 20) * 10 + s, kind: 'message', message: { role: 'assistant', text: `part ${i}.${s}` } })), QUIET_KEY);
          const timeline = await fetch(`${base}/v1/agents/${agentId}/timeline`, { headers: { authorization: `Bearer ${QUIET_KEY}` }, signal: AbortSignal.timeout(10_000) });
          await timeline.arrayBuffer();
          // 404: the agent's history is not written yet (on Kafka the recorder is a hop behind): an answer all the same.
          if (!timeline.ok && timeline.status !== 404) throw new Error(`quiet tenant's timeline: ${timeline.status}`);
          times.push(performance.now() - started);
        } catch {
          failed++;
        }
      }
      return { ...summaryWithP99(times), failed };
    };
    await quiet(); // warm-up, discarded
    log(`quiet tenant: ${options.requests} requests (a 10-step batch, then the agent's timeline) before the streams`);
    const before = await quiet();
    log(`noisy tenant: opening ${options.streams} correction streams at once`);
    const rssBefore = process.memoryUsage().rss;
    let ended = 0;
    const statuses = await Promise.all(
      Array.from({ length: options.streams }, async (_, i) => {
        const controller = new AbortController();
        open.push(controller);
        try {
          const response = await fetch(`${base}/v1/agents/noisy-${i}/corrections`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${NOISY_KEY}` }, signal: controller.signal });
          if (response.status !== 200) await response.arrayBuffer();
          // Read in the background (keep-alive comments): a stream the gateway ends is no longer open.
          else void response.arrayBuffer().then(() => ended++, () => ended++);
          return { status: response.status, retryAfter: response.headers.get('retry-after') };
        } catch (error) {
          // No answer at all: the connection failed on the bench's side or was reset (named in `failures`).
          const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
          return { status: 0, retryAfter: null, failure: cause?.code ?? cause?.message ?? (error as Error).message };
        }
      }),
    );
    const byStatus: Record<string, number> = {};
    for (const { status } of statuses) byStatus[status] = (byStatus[status] ?? 0) + 1;
    const retryAfter = [...new Set(statuses.filter((s) => s.status === 429).map((s) => s.retryAfter))];
    const failures: Record<string, number> = {};
    for (const { failure } of statuses as Array<{ failure?: string }>) if (failure) failures[failure] = (failures[failure] ?? 0) + 1;
    log(`noisy tenant's streams answered ${JSON.stringify(byStatus)}; timing the quiet tenant while they are open`);
    const during = await quiet();
    const quietStreamStatus = await fetch(`${base}/v1/agents/quiet-stream/corrections`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${QUIET_KEY}` }, signal: AbortSignal.timeout(5_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      (error: Error) => error.message,
    );
    return {
      mode: options.brokers ? 'distributed' : 'embedded',
      caps: { perTenant: config.maxStreamsPerTenant, total: config.maxStreams },
      noisyStreams: { requested: options.streams, byStatus, endedWhileTiming: ended, retryAfter, failures },
      quietStreamStatus,
      quietRequestMs: { before, during, p50Ratio: round(during.p50 / before.p50, 2), p99Ratio: round(during.p99 / before.p99, 2) },
      benchRssMb: { beforeStreams: Math.round(rssBefore / 1e6), withStreams: Math.round(process.memoryUsage().rss / 1e6) },
    };
  } finally {
    for (const controller of open) controller.abort();
    await running.stop();
    if (options.brokers) await deleteTopics(options.brokers, prefix);
  }
}

function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) if (env[name] !== undefined) out[name] = env[name] as string;
  return out;
}

function summaryWithP99(values: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN, 2);
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: round(sorted.at(-1) ?? NaN, 2) };
}

/** The run's own topics go when it ends (a shared broker must not pile up benchmark topics). */
async function deleteTopics(brokers: string[], prefix: string): Promise<void> {
  const admin = new Kafka({ clientId: 'bench-gateway-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 });
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

function messageSteps(n: number, run: string): Array<Record<string, unknown>> {
  const steps: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) steps.push({ agentId: `${run}-${i % 500}`, taskId: 'bench', seq: Math.floor(i / 500), kind: 'message', message: { role: 'assistant', text: `working on part ${i}` } });
  return steps;
}

function fill(step: Record<string, unknown>): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: randomUUID(), tenantId: 'bench', ts: new Date().toISOString(), ...step } as StepEvent;
}

async function measure(events: number, concurrency: number, send: (batch: Array<Record<string, unknown>>) => Promise<void>): Promise<number> {
  const steps = messageSteps(events, randomUUID().slice(0, 8));
  const batches: Array<Array<Record<string, unknown>>> = [];
  for (let i = 0; i < steps.length; i += BATCH) batches.push(steps.slice(i, i + BATCH));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) await send(batches[next++]);
    }),
  );
  return Math.round(events / ((performance.now() - started) / 1000));
}

async function measureLatency(base: string, agents: number, onBus: Map<string, number>): Promise<Record<string, unknown>> {
  const toSse: number[] = [];
  const sseAfterBus: number[] = [];
  for (let a = 0; a < agents; a++) {
    const agentId = `looper-${a}-${randomUUID().slice(0, 6)}`;
    const controller = new AbortController();
    const response = await fetch(`${base}/v1/agents/${agentId}/corrections`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${KEY}` }, signal: controller.signal });
    const sentAt = new Map<number, number>();
    const first = (async () => {
      let buffer = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += Buffer.from(chunk).toString('utf8');
        const match = /\ndata: (.*)\n/.exec(buffer);
        if (match) return { at: performance.now(), correction: JSON.parse(match[1]) as { eventId: string; atSeq: number } };
      }
      throw new Error('the stream ended before a correction');
    })();
    let got: { at: number; correction: { eventId: string; atSeq: number } } | undefined;
    void first.then((g) => (got = g));
    for (let seq = 0; seq < 400 && !got; seq += 2) {
      sentAt.set(seq, performance.now());
      sentAt.set(seq + 1, performance.now());
      await post(base, 'POST', '/v1/steps', [
        { agentId, taskId: 'bench', runId: 'r1', seq, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' } } },
        { agentId, taskId: 'bench', runId: 'r1', seq: seq + 1, kind: 'observation', observation: { tool: 'read_file', ok: false, error: 'EACCES: permission denied' } },
      ]);
      await new Promise((r) => setTimeout(r, 25));
    }
    const received = await first;
    controller.abort();
    const sent = sentAt.get(received.correction.atSeq);
    if (sent !== undefined) toSse.push(received.at - sent);
    const bus = onBus.get(received.correction.eventId);
    if (bus !== undefined) sseAfterBus.push(received.at - bus);
  }
  return { agents, stepToSseMs: summary(toSse), sseAfterCorrectionsTopicMs: summary(sseAfterBus) };
}

async function post(base: string, method: string, path: string, body: unknown, key = KEY): Promise<{ accepted?: number }> {
  const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

function summary(values: number[]): Record<string, number> {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN, 1);
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: round(sorted.at(-1) ?? NaN, 1) };
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
