// POST /v1/traces through the embedded runtime: the official OpenTelemetry JS SDK's OTLP/HTTP protobuf
// exporter (gzip, the bearer key in its headers) sends a scripted agent run of 25 identical tool calls to
// the gateway, one batch twice; the otlp-normalizer the runtime starts turns the spans into steps, each
// once; the agent gets a correction that only its tenant's key can read. Malformed bodies get 400 with a
// reason, and a request without a key 401.
import { decodeRpcStatusProtobuf } from '@wayfinder/otlp';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InProcessBus } from '@wayfinder/bus';
import type { StepEvent } from '@wayfinder/contracts';
import { recordAgentRun } from '@wayfinder/otlp/testing';
import type { RunningServices } from '../runtime';
import { call, eventually, startWithGateway } from './gateway.testing';

const A = 'acme-otlp-key';
const B = 'globex-otlp-key';

describe('POST /v1/traces: an OpenTelemetry-exported looping agent is corrected', () => {
  let running: RunningServices;
  let base: string;
  const steps: StepEvent[] = [];

  beforeAll(async () => {
    const bus = new InProcessBus();
    bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload as StepEvent)), { groupId: 'observer' });
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}` }, { bus });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  const exportSpans = (exporter: OTLPTraceExporter, spans: ReadableSpan[]) => new Promise<ExportResultCode>((resolve) => exporter.export(spans, (result) => resolve(result.code)));

  it('publishes each step once and corrects the agent, for its own tenant only', async () => {
    const task = await call(base, 'POST', '/v1/tasks', { key: A, body: { taskId: 'ticket-501', goal: 'find the open order -> refund it -> confirm to the customer' } });
    expect(task.status).toBe(201);
    const calls = Array.from({ length: 25 }, () => ({ tool: 'lookup_order', args: { customer: 'c-88', status: 'open' }, result: 'no open order found' }));
    const spans = await recordAgentRun({ agentName: 'refund-bot', conversationId: 'ticket-501', calls, startMs: Date.now() - 60_000 });
    expect(spans).toHaveLength(51);
    const exporter = new OTLPTraceExporter({ url: `${base}/v1/traces`, compression: 'gzip' as never, headers: { Authorization: `Bearer ${A}` } });
    expect(await exportSpans(exporter, spans.slice(0, 16))).toBe(ExportResultCode.SUCCESS);
    expect(await exportSpans(exporter, spans.slice(0, 16))).toBe(ExportResultCode.SUCCESS); // sent again: duplicates
    for (let i = 16; i < spans.length; i += 16) expect(await exportSpans(exporter, spans.slice(i, i + 16))).toBe(ExportResultCode.SUCCESS);
    await exporter.shutdown();

    await eventually(async () => (await call(base, 'GET', '/v1/agents/refund-bot/corrections', { key: A })).body.corrections.length > 0, 20_000, 'a correction for refund-bot');
    const { corrections } = (await call(base, 'GET', '/v1/agents/refund-bot/corrections', { key: A })).body;
    expect(corrections[0]).toMatchObject({ tenantId: 'acme', agentId: 'refund-bot', taskId: 'ticket-501' });

    await eventually(async () => steps.filter((s) => s.agentId === 'refund-bot').length >= 50, 20_000, 'the 50 steps');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const mine = steps.filter((s) => s.agentId === 'refund-bot');
    expect(mine).toHaveLength(50);
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(50);
    expect(mine.every((s) => s.tenantId === 'acme')).toBe(true);

    const other = await call(base, 'GET', '/v1/agents/refund-bot/corrections', { key: B });
    expect(other).toMatchObject({ status: 200, body: { corrections: [] } });
  });

  it('answers a malformed body 400 with a reason, and a request without a key 401', async () => {
    // A protobuf request's error is a protobuf google.rpc.Status (OTLP/HTTP), INVALID_ARGUMENT.
    const protobuf = await fetch(`${base}/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${A}`, 'content-type': 'application/x-protobuf' }, body: 'this is not protobuf' });
    expect(protobuf.status).toBe(400);
    expect(decodeRpcStatusProtobuf(new Uint8Array(await protobuf.arrayBuffer()))).toEqual({ code: 3, message: expect.any(String) });
    const json = await call(base, 'POST', '/v1/traces', { key: A, raw: '{"resourceSpans": 5}', contentType: 'application/json' });
    expect(json.status).toBe(400);
    expect(json.body.error).toEqual(expect.any(String));
    const notJson = await call(base, 'POST', '/v1/traces', { key: A, raw: '{"resourceSpans": [', contentType: 'application/json' });
    expect(notJson.status).toBe(400);
    expect(await call(base, 'POST', '/v1/traces', { raw: '{}', contentType: 'application/json' })).toMatchObject({ status: 401 });
    expect(await call(base, 'POST', '/v1/traces', { key: A, raw: 'x', contentType: 'text/plain' })).toMatchObject({ status: 415 });
  });
});
