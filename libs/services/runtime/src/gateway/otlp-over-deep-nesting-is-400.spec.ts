// OTLP attributes nested 3,000 deep are the exporter's mistake, not a passing outage: POST /v1/traces answers
// 400 with a reason (JSON and protobuf), never 503 with Retry-After (exporters retry those forever). The
// bound is explicit: 64 levels of AnyValue arrayValue/kvlistValue pass, 65 do not.
import { Writer } from 'protobufjs';
import { decodeRpcStatusProtobuf, encodeTraceRequestProtobuf, MAX_OTLP_ANY_VALUE_DEPTH } from '@wayfinder/otlp';
import type { ExportTraceServiceRequest } from '@wayfinder/ingest';
import type { RunningServices } from '../runtime';
import { startWithGateway } from './gateway.testing';

const A = 'acme-deep-otlp-key';

/** The JSON text of an AnyValue nested `depth` levels (built as text: JSON.stringify itself overflows the stack). */
function nestedText(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    if (i % 2 === 0) {
      open += `{"kvlistValue":{"values":[{"key":"k${i}","value":`;
      close = `}]}}` + close;
    } else {
      open += `{"arrayValue":{"values":[`;
      close = `]}}` + close;
    }
  }
  return `${open}{"stringValue":"leaf"}${close}`;
}

/** A protobuf ExportTraceServiceRequest of one span whose attribute is nested `depth` levels (written by hand). */
function deepProtobuf(depth: number): Uint8Array {
  const w = Writer.create();
  w.uint32((1 << 3) | 2).fork(); // resource_spans
  w.uint32((2 << 3) | 2).fork(); // scope_spans
  w.uint32((2 << 3) | 2).fork(); // spans
  w.uint32((1 << 3) | 2).bytes(Buffer.from('d'.repeat(32), 'hex'));
  w.uint32((2 << 3) | 2).bytes(Buffer.from('0000000000000001', 'hex'));
  w.uint32((5 << 3) | 2).string('execute_tool read_file');
  w.uint32((9 << 3) | 2).fork(); // attributes: KeyValue
  w.uint32((1 << 3) | 2).string('deep');
  w.uint32((2 << 3) | 2).fork(); // value: AnyValue
  for (let i = 0; i < depth; i++) w.uint32((5 << 3) | 2).fork().uint32((1 << 3) | 2).fork(); // array_value.values[0]
  w.uint32((1 << 3) | 2).string('leaf');
  for (let i = 0; i < depth; i++) w.ldelim().ldelim();
  w.ldelim().ldelim().ldelim().ldelim().ldelim();
  return w.finish();
}

/** An AnyValue nested `depth` levels, alternating kvlistValue and arrayValue. */
function nested(depth: number): unknown {
  let value: unknown = { stringValue: 'leaf' };
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { kvlistValue: { values: [{ key: `k${i}`, value }] } } : { arrayValue: { values: [value] } };
  return value;
}

function request(depth: number, trace: string): ExportTraceServiceRequest {
  const start = BigInt(Date.parse('2026-12-01T10:00:00Z')) * 1_000_000n;
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'deep-bot' } }] },
        scopeSpans: [
          {
            scope: { name: 'spec' },
            spans: [
              {
                traceId: trace.repeat(32).slice(0, 32),
                spanId: '0000000000000001',
                name: 'execute_tool read_file',
                kind: 1,
                startTimeUnixNano: String(start),
                endTimeUnixNano: String(start + 500_000n),
                attributes: [
                  { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
                  { key: 'deep', value: nested(depth) },
                ],
              },
            ],
          },
        ],
      },
    ],
  } as unknown as ExportTraceServiceRequest;
}

async function post(base: string, body: Uint8Array | string, contentType: string): Promise<Response> {
  return fetch(`${base}/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${A}`, 'content-type': contentType }, body });
}

describe('OTLP over-deep nesting is 400', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}` });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers a JSON body nested 3,000 deep with 400 and a reason, no Retry-After', async () => {
    const body = JSON.stringify(request(0, 'a')).replace('{"stringValue":"leaf"}', nestedText(3_000));
    const answer = await post(base, body, 'application/json');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(((await answer.json()) as { error: string }).error).toMatch(/nested deeper than 64/);
  });

  it('answers a protobuf body nested 3,000 deep with 400 (google.rpc.Status code 3)', async () => {
    const answer = await post(base, deepProtobuf(3_000), 'application/x-protobuf');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('retry-after')).toBeNull();
    const status = decodeRpcStatusProtobuf(new Uint8Array(await answer.arrayBuffer()));
    expect(status.code).toBe(3);
    expect(status.message).toMatch(/nest/);
  });

  it('takes 64 levels of JSON and refuses 65; protobuf within its 100-message nesting limit is taken', async () => {
    expect(MAX_OTLP_ANY_VALUE_DEPTH).toBe(64);
    expect((await post(base, JSON.stringify(request(64, 'c')), 'application/json')).status).toBe(200);
    const over = await post(base, JSON.stringify(request(65, 'd')), 'application/json');
    expect(over.status).toBe(400);
    expect(over.headers.get('retry-after')).toBeNull();
    expect((await post(base, encodeTraceRequestProtobuf(request(30, 'e')), 'application/x-protobuf')).status).toBe(200);
    expect((await post(base, deepProtobuf(65), 'application/x-protobuf')).status).toBe(400);
  });

  it('answers a body nested past the overall bound with 400 whatever the field', async () => {
    let junk: unknown = 1;
    for (let i = 0; i < 3_000; i++) junk = { x: junk };
    const body = { ...(request(1, '1') as object), extra: junk };
    const answer = await post(base, JSON.stringify(body), 'application/json');
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toMatch(/nested deeper than 512/);
  });
});
