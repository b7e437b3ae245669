/**
 * Chaos (issue #29, "the chaos suite's fuzz covers the gateway's routes; nothing crashes"): a gateway
 * process of its own (`wayfinder start --mode distributed --services gateway`, on the real broker and
 * Redis, two tenants' keys, the operator's upstreams a local fake LLM API) gets a bounded run of generated
 * hostile requests at every door: steps, tasks, policy (PUT, PATCH), OTLP traces, both hooks, the agent
 * routes (corrections, ack, resume, anchors) and the proxy's (chat completions, Anthropic messages, OpenAI
 * Responses, a passed-through path) — bodies shaped like the route's own with hostile values put in,
 * hostile JSON values, bad JSON, odd content types, missing or foreign keys. Never a 5xx: an answer is 2xx
 * or a 4xx whose body names the error (in the door's own error shape); JSON that does not parse is a 4xx
 * at every door. The process never exits and still serves a valid request at the end.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createTopics } from '@wayfinder/bus';
import { deleteTestTopics, freePort, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, type ServiceProcess } from '@wayfinder/testing';
import { loopSteps, REPORT_TASK } from '../gateway/gateway.testing';
import { badJson, hostileValue, shapedLike } from '../gateway/hostile-inputs.testing';

const KEYS = { acme: 'chaos-doors-acme-key-0123456789', globex: 'chaos-doors-globex-key-0123456789' };
const RUNS = Number(process.env.WAYFINDER_FUZZ_RUNS ?? 25);
const SEED = Number(process.env.WAYFINDER_FUZZ_SEED ?? 29);

interface Raw {
  status: number;
  text: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string, localAddress = '127.0.0.1'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', localAddress, port, method, path, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * An LLM API that answers anything a proxy door forwards: unparsable JSON with a 400 (as a real API
 * would), else a well-formed answer for the path (a completion, a message, a response, a model list).
 */
async function forgivingUpstream(): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (text !== '') {
        try {
          JSON.parse(text);
        } catch {
          return json(400, { error: { message: 'the body is not JSON', type: 'invalid_request_error' } });
        }
      }
      const path = req.url ?? '';
      if (path.includes('/messages')) return json(200, { id: 'msg_1', type: 'message', role: 'assistant', model: 'fake', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } });
      if (path.includes('/responses')) return json(200, { id: 'resp_1', object: 'response', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }] });
      if (path.includes('/chat/completions')) return json(200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
      return json(200, { object: 'list', data: [] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

type Dialect = 'wayfinder' | 'openai' | 'anthropic';

interface Door {
  method: string;
  path: fc.Arbitrary<string>;
  /** The route's own body shape (undefined: no body). */
  template: unknown;
  dialect: Dialect;
}

const segment = fc.oneof(fc.constantFrom('looper', 'a%00b', '..%2F..%2Fetc', '%E2%80%AE', 'x'.repeat(2_000), '%ZZ', '%C0%AF'), fc.webSegment());
const query = fc.oneof(fc.constant(''), fc.constantFrom('?after=not-a-cursor', '?after=99999999999999999-9', '?limit=-1', '?wait=999999', '?after[]=1&after[]=2', '?__proto__[x]=1', `?after=${'9'.repeat(5_000)}`), fc.webQueryParameters().map((q) => `?${q}`));

const HOOK = { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/tmp/x' }, tool_use_id: 't1', cwd: '/tmp' };
const TRACES = { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'x' } }] }, scopeSpans: [{ spans: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'execute_tool', startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: 'gen_ai.tool.name', value: { stringValue: 'read' } }] }] }] }] };
const DOORS: Array<[string, Door]> = [
  ['POST /v1/steps', { method: 'POST', path: fc.constant('/v1/steps'), template: loopSteps('fuzz', 1), dialect: 'wayfinder' }],
  ['POST /v1/tasks', { method: 'POST', path: fc.constant('/v1/tasks'), template: REPORT_TASK, dialect: 'wayfinder' }],
  ['PUT /v1/policy', { method: 'PUT', path: fc.constant('/v1/policy'), template: { policy: { loop: { warning: 4 }, nearDuplicate: { retryableErrors: ['timeout'] } }, webhook: { url: 'http://127.0.0.1:9/hook', format: 'generic' } }, dialect: 'wayfinder' }],
  ['PATCH /v1/policy', { method: 'PATCH', path: fc.constant('/v1/policy'), template: { policy: { ingest: { eventsPerSecond: 5 } }, proxy: { upstream: 'https://api.openai.com/v1' } }, dialect: 'wayfinder' }],
  ['POST /v1/traces', { method: 'POST', path: fc.constant('/v1/traces'), template: TRACES, dialect: 'wayfinder' }],
  ['POST /v1/hooks/pre-tool-use', { method: 'POST', path: fc.constant('/v1/hooks/pre-tool-use'), template: HOOK, dialect: 'wayfinder' }],
  ['POST /v1/hooks/post-tool-use', { method: 'POST', path: fc.constant('/v1/hooks/post-tool-use'), template: { ...HOOK, hook_event_name: 'PostToolUse', tool_response: 'ok' }, dialect: 'wayfinder' }],
  ['GET corrections', { method: 'GET', path: fc.tuple(segment, query).map(([a, q]) => `/v1/agents/${a}/corrections${q}`), template: undefined, dialect: 'wayfinder' }],
  ['POST ack', { method: 'POST', path: fc.tuple(segment, segment).map(([a, c]) => `/v1/agents/${a}/corrections/${c}/ack`), template: { outcome: 'applied' }, dialect: 'wayfinder' }],
  ['POST resume', { method: 'POST', path: segment.map((a) => `/v1/agents/${a}/resume`), template: {}, dialect: 'wayfinder' }],
  ['POST anchors', { method: 'POST', path: fc.tuple(segment, segment).map(([a, n]) => `/v1/agents/${a}/anchors/${n}`), template: { decision: 'approve' }, dialect: 'wayfinder' }],
  ['POST /v1/chat/completions', { method: 'POST', path: fc.constant('/v1/chat/completions'), template: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }], user: 'fuzz-agent' }, dialect: 'openai' }],
  ['POST /v1/messages', { method: 'POST', path: fc.constant('/v1/messages'), template: { model: 'claude', max_tokens: 16, system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], metadata: { user_id: 'fuzz-agent' } }, dialect: 'anthropic' }],
  ['POST /v1/responses', { method: 'POST', path: fc.constant('/v1/responses'), template: { model: 'gpt-4o', instructions: 'sys', input: [{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: 'c1', name: 'read', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'x' }], user: 'fuzz-agent' }, dialect: 'openai' }],
  ['POST /v1/embeddings (passed through)', { method: 'POST', path: fc.constant('/v1/embeddings'), template: { model: 'text-embedding-3-small', input: 'hello' }, dialect: 'openai' }],
];

const contentType = fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=evil', undefined);
/**
 * Who calls: a tenant's key in the door's header, another tenant's, a wrong key, or none. Wrong and
 * missing keys come from addresses of their own (127.0.0.2, .3): failed key checks block their address
 * (valid keys included, by design), which must not turn the tenants' requests into 429s.
 */
const ADDRESS = { acme: '127.0.0.1', globex: '127.0.0.1', wrong: '127.0.0.2', none: '127.0.0.3' } as const;
const caller = fc.constantFrom<'acme' | 'globex' | 'wrong' | 'none'>('acme', 'acme', 'acme', 'globex', 'wrong', 'none');

function headersFor(dialect: Dialect, who: 'acme' | 'globex' | 'wrong' | 'none', agent: boolean): Record<string, string> {
  const key = who === 'wrong' ? 'not-a-key-of-anyone-at-all' : who === 'none' ? undefined : KEYS[who];
  const headers: Record<string, string> = {};
  if (key !== undefined) {
    if (dialect === 'wayfinder') headers.authorization = `Bearer ${key}`;
    else headers['x-wayfinder-key'] = key;
  }
  if (dialect !== 'wayfinder') {
    if (agent) headers['x-wayfinder-agent'] = 'fuzz-agent';
    headers[dialect === 'anthropic' ? 'x-api-key' : 'authorization'] = 'sk-upstream-of-the-agent';
  }
  return headers;
}

/** The error a 4xx body names, in the door's shape: `{error}` (Wayfinder), `{error: {message}}` (OpenAI), `{type: 'error', error: {message}}` (Anthropic). */
function namedError(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

describe('chaos: every gateway door fuzzed, the gateway process stays up', () => {
  const prefix = `${uniqueTestName('chaos-doors')}.`;
  let brokers: string[];
  let upstream: Awaited<ReturnType<typeof forgivingUpstream>>;
  let gateway: ServiceProcess | undefined;
  let port: number;
  let exitedEarly: number | null | undefined;

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    upstream = await forgivingUpstream();
    port = await freePort();
    gateway = startServiceProcess('gateway', {
      WAYFINDER_TOPIC_PREFIX: prefix,
      WAYFINDER_GATEWAY_PORT: String(port),
      WAYFINDER_API_KEYS: `acme:${KEYS.acme},globex:${KEYS.globex}`,
      WAYFINDER_PROXY_UPSTREAM: `${upstream.base}/v1`,
      WAYFINDER_ANTHROPIC_UPSTREAM: upstream.base,
      WAYFINDER_EGRESS_ALLOW: '127.0.0.1',
    }, 'chaos-doors-gateway');
    void gateway.exited.then((code) => (exitedEarly = code));
    await gateway.ready;
  });

  afterAll(async () => {
    if (gateway) await stopServiceProcess(gateway);
    await upstream?.close();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it.each(DOORS)('%s: never a 5xx, every 4xx names its error, bad JSON is a 4xx', async (_name, door) => {
    const body = door.template === undefined
      ? fc.constant(undefined)
      : fc.oneof({ weight: 3, arbitrary: shapedLike(door.template).map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'undefined') }, { weight: 1, arbitrary: badJson });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(door.path, body, contentType, caller, fc.boolean(), async (path, text, type, who, agent) => {
        const headers = headersFor(door.dialect, who, agent);
        if (text !== undefined && type !== undefined) headers['content-type'] = type;
        const answer = await send(port, door.method, path, headers, text, ADDRESS[who]);
        const what = `${door.method} ${path} (${who}, ${type}) answered ${answer.status}: ${answer.text.slice(0, 300)} for ${String(text).slice(0, 200)}`;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 500 || answer.status < 200) throw new Error(what);
        if (answer.status >= 400 && namedError(answer.text) === undefined) throw new Error(`no error named: ${what}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    process.stdout.write(`chaos doors ${_name}: ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    // The run reached past the key check: the door itself refused some of what it read.
    expect([...statuses.keys()].some((status) => status >= 400 && status < 500 && status !== 401 && status !== 429)).toBe(true);
    // JSON that does not parse is refused at every door that reads a body, whoever calls.
    if (door.template !== undefined) {
      for (const text of ['{', '[1,2', 'nul', '"unterminated', '{"a":1}}', '['.repeat(100_000)]) {
        const answer = await send(port, door.method, await fc.sample(door.path, { seed: SEED, numRuns: 1 })[0], { ...headersFor(door.dialect, 'acme', true), 'content-type': 'application/json' }, text);
        expect([answer.status, namedError(answer.text) !== undefined]).toEqual([expect.any(Number), true]);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }
    }
    expect(exitedEarly).toBeUndefined();
  }, 120_000);

  it('is still up and serving afterwards', async () => {
    expect(exitedEarly).toBeUndefined();
    expect((await send(port, 'GET', '/health/live', {})).status).toBe(200);
    const steps = await send(port, 'POST', '/v1/steps', { authorization: `Bearer ${KEYS.acme}`, 'content-type': 'application/json' }, JSON.stringify(loopSteps('after-fuzz', 1)));
    if (steps.status !== 202) throw new Error(`${steps.status}: ${steps.text}`);
    const chat = await send(port, 'POST', '/v1/chat/completions', { 'x-wayfinder-key': KEYS.globex, 'x-wayfinder-agent': 'after-fuzz', 'content-type': 'application/json' }, JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: 'hi' }] }));
    expect(chat.status).toBe(200);
    expect(gateway!.log()).not.toMatch(/uncaught|unhandled rejection|FATAL/i); // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
});
