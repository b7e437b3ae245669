// Issue #29, "the fuzz covers the gateway's routes with these inputs; nothing crashes": every /v1 route of
// the embedded gateway (local mode, loopback) gets generated hostile requests: deep nesting, huge strings,
// wrong types, odd content types, bad JSON, unicode, catastrophic regex patterns in policy fields, hostile
// Host values and odd query parameters. Every answer is 2xx, 4xx or 429 (the proxy alone may answer
// 502/503: it has no upstream here), a 4xx body is JSON with `error` (the proxy's in OpenAI's shape, OTLP's
// protobuf requests answered in protobuf), and the gateway still answers a
// valid request after each route's run.
import { request } from 'node:http';
import fc from 'fast-check';
import type { RunningServices } from '../runtime';
import { loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';
import { badJson, hostileValue, shapedLike } from './hostile-inputs.testing';

interface Raw {
  status: number;
  text: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Route {
  method: string;
  path: fc.Arbitrary<string>;
  template: unknown;
  /** Statuses besides 2xx/4xx this route may answer. */
  also?: number[];
}

const segment = fc.oneof(fc.constantFrom('looper', 'a%00b', '..%2F..%2Fetc', '%E2%80%AE', 'x'.repeat(2_000), '%ZZ', '%C0%AF'), fc.webSegment());
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?after=', '?after=not-a-cursor', '?after=99999999999999999-9', '?limit=-1', '?limit=1e9', '?limit=abc', '?wait=999999', '?wait=-5', '?waitMs=NaN', '?after[]=1&after[]=2', '?tenantId=local&tenantId=other', '?__proto__[x]=1', `?after=${'9'.repeat(5_000)}`),
  fc.webQueryParameters().map((q) => `?${q}`),
);

const POLICY_TEMPLATE = { policy: { loop: { warning: 4 }, nearDuplicate: { retryableErrors: ['timeout'] }, proxy: { upstream: 'https://api.openai.com/v1' } } };
const CHAT_TEMPLATE = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] };
const HOOK_TEMPLATE = { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/tmp/x' }, tool_use_id: 't1', cwd: '/tmp' };
const TRACES_TEMPLATE = { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'x' } }] }, scopeSpans: [{ spans: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'execute_tool', startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: 'gen_ai.tool.name', value: { stringValue: 'read' } }] }] }] }] };

const routes: Array<[string, Route]> = [
  ['POST /v1/steps', { method: 'POST', path: fc.constant('/v1/steps'), template: loopSteps('fuzz', 1) }],
  ['POST /v1/tasks', { method: 'POST', path: fc.constant('/v1/tasks'), template: REPORT_TASK }],
  ['PUT /v1/policy', { method: 'PUT', path: fc.constant('/v1/policy'), template: POLICY_TEMPLATE }],
  ['POST /v1/traces', { method: 'POST', path: fc.constant('/v1/traces'), template: TRACES_TEMPLATE }],
  ['POST /v1/hooks/pre-tool-use', { method: 'POST', path: fc.constant('/v1/hooks/pre-tool-use'), template: HOOK_TEMPLATE }],
  ['POST /v1/hooks/post-tool-use', { method: 'POST', path: fc.constant('/v1/hooks/post-tool-use'), template: { ...HOOK_TEMPLATE, hook_event_name: 'PostToolUse', tool_response: 'ok' } }],
  ['POST /v1/chat/completions', { method: 'POST', path: fc.constant('/v1/chat/completions'), template: CHAT_TEMPLATE, also: [502, 503] }],
  ['GET corrections', { method: 'GET', path: fc.tuple(segment, query).map(([a, q]) => `/v1/agents/${a}/corrections${q}`), template: undefined }],
  ['POST ack', { method: 'POST', path: fc.tuple(segment, segment).map(([a, c]) => `/v1/agents/${a}/corrections/${c}/ack`), template: { outcome: 'applied' } }],
  ['POST resume', { method: 'POST', path: segment.map((a) => `/v1/agents/${a}/resume`), template: {} }],
  // Not POST /v1/keys: a key created ends local mode, which the checks after each run rely on.
  ['DELETE key', { method: 'DELETE', path: segment.map((k) => `/v1/keys/${k}`), template: undefined }],
  ['POST anchors', { method: 'POST', path: fc.tuple(segment, segment).map(([a, n]) => `/v1/agents/${a}/anchors/${n}`), template: { decision: 'approve' } }],
];

const contentType = fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/x-protobuf', 'application/json; charset=evil', undefined);
const host = fc.oneof({ weight: 5, arbitrary: fc.constant('127.0.0.1') }, { weight: 1, arbitrary: fc.constantFrom('rebind.attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io', '[::1', 'a'.repeat(300), 'localhost:99999', '0x7f.1', '') });

describe('the gateway’s routes under fuzzed hostile inputs', () => {
  let running: RunningServices;
  let port: number;

  beforeAll(async () => {
    running = await startWithGateway();
    port = running.gateway!.port;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it.each(routes)('%s: answers 2xx/4xx/429 with a JSON error, never crashes', async (_name, route) => {
    const body = route.template === undefined ? fc.constant(undefined) : fc.oneof({ weight: 3, arbitrary: shapedLike(route.template).map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'undefined') }, { weight: 1, arbitrary: badJson });
    await fc.assert(
      fc.asyncProperty(route.path, body, contentType, host, async (path, text, type, hostValue) => {
        const headers: Record<string, string> = { host: hostValue };
        if (text !== undefined && type !== undefined) headers['content-type'] = type;
        const answer = await send(port, route.method, path, headers, text);
        const ok = (answer.status >= 200 && answer.status < 500) || (route.also ?? []).includes(answer.status);
        if (!ok) throw new Error(`${route.method} ${path} (host ${hostValue}, ${type}) answered ${answer.status}: ${answer.text.slice(0, 300)} for ${String(text).slice(0, 300)}`);
        // OTLP answers a protobuf request's error as a protobuf google.rpc.Status (the OTLP/HTTP spec).
        const protobufOtlp = path.startsWith('/v1/traces') && type === 'application/x-protobuf';
        if (answer.status >= 400 && answer.status < 500 && !protobufOtlp) {
          const parsed = JSON.parse(answer.text) as { error?: unknown };
          // The proxy answers errors in OpenAI's shape, `{ error: { message } }`, for its clients.
          const message = route.also ? ((parsed.error as { message?: unknown } | undefined)?.message ?? parsed.error) : parsed.error;
          expect(typeof message).toBe('string');
        }
      }),
      { numRuns: 30, seed: Number(process.env.WAYFINDER_FUZZ_SEED ?? 29), endOnFailure: true },
    );
    // Still serving: a valid request after the run.
    const after = await send(port, 'GET', '/v1/policy', { host: '127.0.0.1' });
    expect(after.status).toBe(200);
    const steps = await send(port, 'POST', '/v1/steps', { host: '127.0.0.1', 'content-type': 'application/json' }, JSON.stringify(loopSteps('after-fuzz', 1)));
    expect(steps.status).toBeLessThan(300);
  }, 60_000);
});
