// POST /v1/traces counts spans against the tenant's ingest limit like /v1/steps counts events: past the
// burst → 429 with Retry-After, one request larger than the burst → 413, another tenant unaffected. Error
// bodies follow the request's encoding (OTLP/HTTP): a protobuf request gets a protobuf google.rpc.Status,
// a JSON one the API's {error, field?}.
import { decodeRpcStatusProtobuf, encodeTraceRequestProtobuf } from '@wayfinder/otlp';
import type { ExportTraceServiceRequest } from '@wayfinder/ingest';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const A = 'acme-traces-limit-key';
const B = 'globex-traces-limit-key';

function spans(n: number, trace: string): ExportTraceServiceRequest {
  const start = BigInt(Date.parse('2026-12-01T10:00:00Z')) * 1_000_000n;
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'limit-bot' } }] },
        scopeSpans: [
          {
            scope: { name: 'spec' },
            spans: Array.from({ length: n }, (_, i) => ({
              traceId: trace.repeat(32).slice(0, 32),
              spanId: (i + 1).toString(16).padStart(16, '0'),
              name: 'execute_tool read_file',
              kind: 1,
              startTimeUnixNano: String(start + BigInt(i) * 1_000_000n),
              endTimeUnixNano: String(start + BigInt(i) * 1_000_000n + 500_000n),
              attributes: [
                { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
                { key: 'gen_ai.tool.name', value: { stringValue: 'read_file' } },
              ],
            })),
          },
        ],
      },
    ],
  } as unknown as ExportTraceServiceRequest;
}

async function post(base: string, key: string, body: Uint8Array | string, contentType: string): Promise<Response> {
  return fetch(`${base}/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body });
}

describe('POST /v1/traces limits and error bodies', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}` });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers 429 with Retry-After past the tenant’s burst, and 413 for one request larger than it', async () => {
    expect((await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, ingest: { eventsPerSecond: 0.5, burst: 10 } } })).status).toBe(200);
    expect((await post(base, A, JSON.stringify(spans(8, 'a')), 'application/json')).status).toBe(200);
    const over = await post(base, A, encodeTraceRequestProtobuf(spans(4, 'b')), 'application/x-protobuf');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('content-type')).toBe('application/x-protobuf');
    expect(decodeRpcStatusProtobuf(new Uint8Array(await over.arrayBuffer()))).toEqual({ code: 8, message: expect.stringMatching(/ingest limit/) });
    const overJson = await post(base, A, JSON.stringify(spans(4, 'c')), 'application/json');
    expect(overJson.status).toBe(429);
    expect(await overJson.json()).toEqual({ error: expect.stringMatching(/ingest limit/) });
    expect((await post(base, B, JSON.stringify(spans(8, 'd')), 'application/json')).status).toBe(200);
    expect((await post(base, A, JSON.stringify(spans(12, 'e')), 'application/json')).status).toBe(413);
  });

  it('answers a malformed protobuf body with a protobuf Status, a malformed JSON body with {error}', async () => {
    const bad = await post(base, B, new Uint8Array([0x0a, 0xff, 0xff, 0xff]), 'application/x-protobuf');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/x-protobuf');
    expect(decodeRpcStatusProtobuf(new Uint8Array(await bad.arrayBuffer()))).toMatchObject({ code: 3, message: expect.any(String) });
    const badJson = await post(base, B, '{"resourceSpans": 7}', 'application/json');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: expect.any(String) });
  });
});
