/**
 * For the gateway's specs: the services with the gateway on a free port (embedded by default, or
 * distributed on the real broker and Redis), HTTP helpers, an SSE reader, and the steps of a looping agent.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig, type WayfinderConfig } from '@wayfinder/config';
import type { StepEvent } from '@wayfinder/contracts';
import { deleteTestTopics, requireKafka, uniqueTestName } from '@wayfinder/testing';
import { startServices, type RunningServices, type StartOptions } from '../runtime';

export async function startWithGateway(env: Record<string, string> = {}, options: StartOptions = {}, overrides: Partial<WayfinderConfig> = {}): Promise<RunningServices> {
  const config: WayfinderConfig = { ...loadConfig({ WAYFINDER_GATEWAY_PORT: '0', ...env }), workingDir: mkdtempSync(join(tmpdir(), 'wf-gateway-')), ...overrides };
  return startServices(config, { logger: false, ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(base: string, method: string, path: string, options: { key?: string; body?: unknown; raw?: string; contentType?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Reads an SSE stream in the background; `events` grows as they arrive; `close()` ends it. */
export function readSse(url: string, headers: Record<string, string>): { events: SseEvent[]; status: Promise<number>; close(): void } {
  const events: SseEvent[] = [];
  const controller = new AbortController();
  let resolveStatus: (n: number) => void = () => undefined;
  const status = new Promise<number>((resolve) => (resolveStatus = resolve));
  void (async () => {
    try {
      const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
      resolveStatus(response.status);
      if (!response.body) return;
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              event.data += line.slice(6);
              hasData = true;
            }
          }
          if (hasData) events.push(event);
        }
      }
    } catch {
      resolveStatus(0); // aborted by close()
    }
  })();
  return { events, status, close: () => controller.abort() };
}

/** `calls` identical failing read_file calls (action + observation each), as an agent posts them. */
export function loopSteps(agentId: string, calls: number, options: { firstSeq?: number; tenantId?: string; taskId?: string } = {}): Array<Record<string, unknown>> {
  const steps: Array<Record<string, unknown>> = [];
  let seq = options.firstSeq ?? 0;
  for (let i = 0; i < calls; i++) {
    const base = { agentId, taskId: options.taskId ?? 'report', runId: 'r1', ...(options.tenantId && { tenantId: options.tenantId }) };
    steps.push({ ...base, seq: seq++, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${seq}` } });
    steps.push({ ...base, seq: seq++, kind: 'observation', observation: { tool: 'read_file', callId: `c${seq - 1}`, ok: false, error: 'EACCES: permission denied' } });
  }
  return steps;
}

/** Polls an async condition until it holds, or fails naming what it waited for. */
export async function eventually(predicate: () => Promise<boolean>, timeoutMs = 20_000, what = 'the condition'): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** 1,000 message steps of 50 agents, 10 of them invalid in 10 ways; `invalid` maps index → the field named. */
export function batchWithInvalid(agentPrefix: string): { events: Array<Record<string, unknown>>; invalid: Map<number, string> } {
  const events: Array<Record<string, unknown>> = [];
  const invalid = new Map<number, string>();
  for (let i = 0; i < 1000; i++) {
    const agentId = `${agentPrefix}-${i % 50}`;
    const event: Record<string, unknown> = { agentId, taskId: 'report', seq: Math.floor(i / 50), kind: 'message', message: { role: 'assistant', text: `step ${i}` } };
    if (i % 100 === 7) {
      // Ten different ways to be wrong, each naming its field.
      const k = i / 100 - 0.07;
      const wrongs: Array<[string, (e: Record<string, unknown>) => void]> = [
        ['seq', (e) => (e.seq = -1)],
        ['agentId', (e) => delete e.agentId],
        ['kind', (e) => (e.kind = 'dance')],
        ['message.role', (e) => (e.message = { role: 'robot', text: 'x' })],
        ['taskId', (e) => (e.taskId = '')],
        ['seq', (e) => (e.seq = 'one')],
        ['ts', (e) => (e.ts = 'yesterday')],
        ['message', (e) => delete e.message],
        ['agentId', (e) => (e.agentId = 'x'.repeat(200))],
        ['schema', (e) => (e.schema = 'wayfinder.step.v0')],
      ];
      const [field, spoil] = wrongs[Math.round(k)];
      spoil(event);
      invalid.set(i, field);
    }
    events.push(event);
  }
  return { events, invalid };
}

export const REPORT_TASK = { taskId: 'report', goal: 'Read the sales data -> compute the totals -> write the report' };

/** The services distributed on the real broker and Redis, the gateway on a free port, and what was published as steps. */
export interface GatewayOnKafka {
  readonly brokers: string[];
  /** The topics' (and Redis keys') prefix of this run. */
  readonly prefix: string;
  readonly running: RunningServices;
  /** The gateway's base URL. */
  readonly base: string;
  /** Every step on wayfinder.steps.v1, as the pipeline reads them. */
  readonly steps: StepEvent[];
  stop(): Promise<void>;
}

/** `startWithGateway`, distributed on topics of its own (`name` makes the prefix), with an observer of the steps topic. */
export async function startGatewayOnKafka(name: string, env: Record<string, string> = {}): Promise<GatewayOnKafka> {
  const brokers = await requireKafka();
  const prefix = `${uniqueTestName(name)}.`;
  await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
  const steps: StepEvent[] = [];
  const observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
  observer.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: `${prefix}observer` });
  await observer.start();
  let running: RunningServices;
  try {
    const config = loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: `${prefix}wf`, WAYFINDER_GATEWAY_PORT: '0', ...env });
    running = await startServices(config, { logger: false });
  } catch (error) {
    await observer.stop();
    await deleteTestTopics(brokers, prefix);
    throw error;
  }
  const gateway = running.gateway;
  if (!gateway) {
    await running.stop();
    await observer.stop();
    await deleteTestTopics(brokers, prefix);
    throw new Error('the gateway did not start');
  }
  return {
    brokers,
    prefix,
    running,
    base: gateway.url,
    steps,
    async stop() {
      await running.stop();
      await observer.stop();
      await deleteTestTopics(brokers, prefix);
    },
  };
}
