/**
 * `wayfinder bench proxy`: the latency the LLM proxy (`POST /v1/chat/completions` on the gateway) adds
 * per request, embedded (every service in this process, on its event loop) or with --kafka (only the
 * gateway here, publishing to Kafka, corrections in Redis, as deployed), against a local
 * upstream (node:http, a fixed tool-call answer at once). The same requests are sent straight to the
 * upstream in the same run, alternated with the proxied ones (direct, proxied, direct, …) over one
 * keep-alive client, so the machine's noise falls on both sides: the figure is the difference.
 * Agents work through conversations that grow a turn per request (a tool call and its result, distinct
 * paths so no loop is detected), up to --turns, then a new conversation: every proxied request publishes
 * the new tool result and the answer's action as steps. Non-streamed and streamed (time to the last
 * byte) requests are measured apart.
 */
import { mkdtempSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTopics } from '@wayfinder/bus';
import { loadConfig, type WayfinderConfig } from '@wayfinder/config';
import { startServices } from '@wayfinder/service-runtime';

export interface ProxyBenchOptions {
  /** Distributed on these brokers (and Redis from WAYFINDER_REDIS_URL); embedded when absent. */
  brokers?: string[];
  requests: number;
  agents: number;
  turns: number;
}

const KEY = 'bench-proxy-key';
const UPSTREAM_KEY = 'sk-bench-upstream';

interface Measured {
  direct: number[];
  proxied: number[];
  /** proxied − direct of each pair. */
  added: number[];
  refused: number;
}

export async function runProxyBench(options: ProxyBenchOptions, log: (line: string) => void): Promise<Record<string, unknown>> {
  const upstream = await startUpstream();
  const prefix = options.brokers ? `bench-proxy-${Date.now().toString(36)}.` : '';
  const env: Record<string, string> = { WAYFINDER_API_KEYS: `bench:${KEY}`, WAYFINDER_GATEWAY_PORT: '0', WAYFINDER_PROXY_UPSTREAM: upstream.url, WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND: '1000000', WAYFINDER_INGEST_MAX_BURST: '1000000' };
  if (options.brokers) {
    await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: 6 });
    // Only the gateway in this process, as deployed: the proxy's own cost, Kafka publish included, not the
    // pipeline's work on the same event loop (embedded mode measures that).
    Object.assign(env, { WAYFINDER_SERVICES: 'gateway', WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: options.brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: `${prefix}wf`, WAYFINDER_REDIS_URL: process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379' });
  }
  const config: WayfinderConfig = { ...loadConfig(env), workingDir: mkdtempSync(join(tmpdir(), 'wf-bench-proxy-')) };
  const running = await startServices(config, { logger: false });
  const gateway = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const policy = await send(agent, `${gateway}/v1/policy`, JSON.stringify({ policy: {}, ingest: { eventsPerSecond: 1_000_000, burst: 1_000_000 } }), { authorization: `Bearer ${KEY}` }, 'PUT');
    if (policy.status !== 200) throw new Error(`PUT /v1/policy answered ${policy.status}`);
    const conversations = new Conversations(options.agents, options.turns);
    const run = async (n: number, stream: boolean): Promise<Measured> => {
      const measured: Measured = { direct: [], proxied: [], added: [], refused: 0 };
      for (let i = 0; i < n; i++) {
        const { agentId, body } = conversations.next(stream);
        const t0 = performance.now();
        const direct = await send(agent, `${upstream.url}/chat/completions`, body, { authorization: `Bearer ${UPSTREAM_KEY}` });
        const t1 = performance.now();
        const proxied = await send(agent, `${gateway}/v1/chat/completions`, body, { authorization: `Bearer ${UPSTREAM_KEY}`, 'x-wayfinder-key': KEY, 'x-wayfinder-agent': agentId, 'x-wayfinder-task': 'bench' });
        const t2 = performance.now();
        if (direct.status !== 200) throw new Error(`the upstream answered ${direct.status}`);
        if (proxied.status !== 200) {
          measured.refused++;
          continue;
        }
        measured.direct.push(t1 - t0);
        measured.proxied.push(t2 - t1);
        measured.added.push(t2 - t1 - (t1 - t0));
      }
      return measured;
    };
    log(`warm-up: ${Math.min(200, options.requests)} pairs`);
    await run(Math.min(200, options.requests), false);
    log(`non-streamed: ${options.requests} pairs (direct, proxied) over ${options.agents} agents`);
    const plain = await run(options.requests, false);
    log(`streamed: ${options.requests} pairs`);
    const streamed = await run(options.requests, true);
    return {
      benchmark: 'proxy',
      mode: options.brokers ? 'distributed' : 'embedded',
      requestBytes: { first: conversations.sizes[0], last: conversations.sizes[conversations.sizes.length - 1] },
      nonStreamed: summary(plain),
      streamed: summary(streamed),
    };
  } finally {
    agent.destroy();
    await running.stop();
    await upstream.close();
  }
}

/** Per agent, a conversation growing by one distinct tool call and its result per request. */
class Conversations {
  private readonly turnsOf: number[];
  private next_ = 0;
  readonly sizes: number[] = [];

  constructor(
    private readonly agents: number,
    private readonly maxTurns: number,
  ) {
    this.turnsOf = new Array<number>(agents).fill(0);
  }

  next(stream: boolean): { agentId: string; body: string } {
    const a = this.next_++ % this.agents;
    const turns = this.turnsOf[a]++ % this.maxTurns;
    const generation = Math.floor(this.turnsOf[a] / this.maxTurns);
    const messages: unknown[] = [
      { role: 'system', content: 'You are a data agent. Read the files you need, then write the report.' },
      { role: 'user', content: `Summarise the sales of region ${a} (conversation ${generation}).` },
    ];
    for (let t = 0; t < turns; t++) {
      const id = `call_${t}`;
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `/data/region-${a}/month-${t}.csv` }) } }] });
      messages.push({ role: 'tool', tool_call_id: id, content: `month,total\n${t},${1000 + t * 37}` });
    }
    const body = JSON.stringify({ model: 'bench', messages, tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }], stream, ...(stream && { stream_options: { include_usage: true } }) });
    this.sizes.push(body.length);
    return { agentId: `bench-agent-${a}`, body };
  }
}

function send(agent: Agent, url: string, body: string, headers: Record<string, string>, method = 'POST'): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function startUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: unknown[]; stream?: boolean };
      const id = `call_${body.messages.length}`;
      const args = JSON.stringify({ path: `/data/next-${++n}.csv` });
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (payload: object) => res.write(`data: ${JSON.stringify({ id: `c${n}`, object: 'chat.completion.chunk', created: 1, model: 'bench', ...payload })}\n\n`);
        chunk({ choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id, type: 'function', function: { name: 'read_file', arguments: '' } }] }, finish_reason: null }] });
        chunk({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] }, finish_reason: null }] });
        chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
        chunk({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } });
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `c${n}`, object: 'chat.completion', created: 1, model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: args } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function summary(m: Measured): Record<string, unknown> {
  const ms = (values: number[], q: number) => {
    if (values.length === 0) return null;
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 1000) / 1000;
  };
  return {
    pairs: m.direct.length,
    refused: m.refused,
    directMs: { p50: ms(m.direct, 0.5), p99: ms(m.direct, 0.99) },
    proxiedMs: { p50: ms(m.proxied, 0.5), p99: ms(m.proxied, 0.99) },
    addedMs: { p50: ms(m.added, 0.5), p99: ms(m.added, 0.99) },
  };
}
