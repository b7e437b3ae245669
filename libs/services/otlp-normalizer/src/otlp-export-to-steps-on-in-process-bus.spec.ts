/**
 * OTLP exports through the handler the gateway's `POST /v1/traces` will call, over the in-process bus
 * (embedded mode), to steps: a 25-call agent run exported by the OpenTelemetry SDK (protobuf, gzip; one
 * batch sent twice) gives each step once on `wayfinder.steps.v1`; partial success names rejected spans;
 * unreadable bodies get 4xx with a reason; tenants stay apart; bad messages on the raw topic go to its DLQ.
 */
import { gzipSync } from 'node:zlib';
import { DLQ_HEADERS, type StepEvent } from '@wayfinder/contracts';
import { InProcessBus } from '@wayfinder/bus';
import { decodeRpcStatusProtobuf, decodeTraceResponseProtobuf } from '@wayfinder/otlp';
import { otlpJsonBatches, otlpProtobufBatches, recordAgentRun } from '@wayfinder/otlp/testing';
import { until } from '@wayfinder/testing';
import { OtlpExportHandler } from './otlp-export.handler';
import { startOtlpNormalizer, type RunningOtlpNormalizer } from './otlp-normalizer.service';

/** Ticks the service until the condition holds (the bus delivers asynchronously). */
async function tickUntil(service: RunningOtlpNormalizer, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await service.tick();
    if (condition()) return;
    if (Date.now() > deadline) throw new Error('timed out waiting for the steps');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

class TestClock {
  ms = Date.parse('2026-12-01T12:00:00.000Z');
  now = () => this.ms;
}

describe('OTLP export → otlp-normalizer → steps, on the in-process bus', () => {
  const bus = new InProcessBus();
  const clock = new TestClock();
  const steps: StepEvent[] = [];
  const dlq: { value: string; headers: Record<string, string> }[] = [];
  let service: RunningOtlpNormalizer;
  const handler = new OtlpExportHandler(bus);

  beforeAll(async () => {
    bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload)), { groupId: 'test-steps' });
    bus.subscribeRaw('wayfinder.otlp.v1.dlq', async (batch) => void dlq.push(...batch.map((d) => ({ value: d.payload.toString('utf8'), headers: { ...d.headers } }))), { groupId: 'test-dlq' });
    service = startOtlpNormalizer({ bus, groupId: 'wayfinder.otlp-normalizer', clock, tickMs: 0 });
    await bus.start();
  });

  afterAll(async () => {
    await service.stop();
    await bus.stop();
  });

  const forTenant = (tenantId: string) => steps.filter((s) => s.tenantId === tenantId);

  it('publishes each step of a looping run once, though a batch was exported twice', async () => {
    const calls = Array.from({ length: 25 }, () => ({ tool: 'check_status', args: { job: 'j-77' }, result: 'pending' }));
    const bodies = otlpProtobufBatches(await recordAgentRun({ agentName: 'poller', calls }), 20);
    for (const body of [bodies[0], ...bodies]) {
      const answer = await handler.handleOtlpExport(gzipSync(body), 'application/x-protobuf', 'gzip', 'tenant-a');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/x-protobuf');
      expect(decodeTraceResponseProtobuf(answer.body as Uint8Array)).toEqual({});
    }
    clock.ms += 2_000; // past the root span's grace
    await tickUntil(service, () => forTenant('tenant-a').length >= 50);
    const mine = forTenant('tenant-a');
    expect(mine).toHaveLength(50);
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(50);
    expect(mine.map((s) => s.seq)).toEqual(mine.map((_, i) => i));
    expect(new Set(mine.map((s) => s.agentId))).toEqual(new Set(['poller']));
  });

  it('keeps tenants apart: the same spans from another tenant are that tenant’s steps', async () => {
    const spans = await recordAgentRun({ agentName: 'shared-name', calls: [{ tool: 'ls', args: {}, result: 'a' }] });
    const [json] = otlpJsonBatches(spans);
    for (const tenant of ['tenant-b', 'tenant-c']) {
      expect((await handler.handleOtlpExport(Buffer.from(json), 'application/json', undefined, tenant)).status).toBe(200);
    }
    clock.ms += 2_000;
    await tickUntil(service, () => forTenant('tenant-b').length === 2 && forTenant('tenant-c').length === 2);
    expect(forTenant('tenant-a')).toHaveLength(50);
  });

  it('answers partial success naming the rejected span, and still ingests the others', async () => {
    const spans = await recordAgentRun({ agentName: 'partial', calls: [{ tool: 'cat', args: { f: 'x' }, result: 'hello' }] });
    const request = JSON.parse(otlpJsonBatches(spans)[0]);
    request.resourceSpans[0].scopeSpans[0].spans[0].endTimeUnixNano = 'later';
    const answer = await handler.handleOtlpExport(Buffer.from(JSON.stringify(request)), 'application/json', undefined, 'tenant-d');
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body as string);
    expect(body.partialSuccess.rejectedSpans).toBe('1');
    expect(body.partialSuccess.errorMessage).toMatch(/^1 span\(s\) rejected: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.endTimeUnixNano \(span [0-9a-f]{16}\): must be a non-negative integer/);
    clock.ms += 2_000;
    // The chat span is gone, so the tool span gives the action itself.
    await tickUntil(service, () => forTenant('tenant-d').length === 2);
    expect(forTenant('tenant-d').map((s) => s.kind)).toEqual(['action', 'observation']);
  });

  it('answers an unreadable body with 4xx and a reason', async () => {
    const cases: [Uint8Array, string, string | undefined, number, RegExp][] = [
      [Buffer.from('{"resourceSpans": 3}'), 'application/json', undefined, 400, /resourceSpans must be an array/],
      [Buffer.from('{oops'), 'application/json', undefined, 400, /not valid JSON/],
      [Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]), 'application/x-protobuf', undefined, 400, /not a protobuf ExportTraceServiceRequest/],
      [Buffer.from('{}'), 'text/csv', undefined, 415, /Content-Type must be/],
    ];
    for (const [body, type, encoding, status, reason] of cases) {
      const answer = await handler.handleOtlpExport(body, type, encoding, 'tenant-e');
      expect(answer.status).toBe(status);
      // A protobuf request gets a protobuf google.rpc.Status (INVALID_ARGUMENT), a JSON one {error}.
      if (type === 'application/x-protobuf') expect(decodeRpcStatusProtobuf(answer.body as Uint8Array)).toEqual({ code: 3, message: expect.stringMatching(reason) });
      else expect(JSON.parse(answer.body as string).error).toMatch(reason);
    }
    const field = JSON.parse((await handler.handleOtlpExport(Buffer.from('{"resourceSpans": 3}'), 'application/json', undefined, 'tenant-e')).body as string);
    expect(field.field).toBe('resourceSpans');
  });

  it('answers 503 with Retry-After when the bus refuses the spans', async () => {
    const refusing = { ...bus, publish: async () => { throw new Error('broker unavailable'); } } as unknown as InProcessBus;
    const [json] = otlpJsonBatches(await recordAgentRun({ agentName: 'x', calls: [{ tool: 'ls', args: {}, result: 'a' }] }));
    const answer = await new OtlpExportHandler(refusing, { retryAfterSeconds: 3 }).handleOtlpExport(Buffer.from(json), 'application/json', undefined, 'tenant-f');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('3');
    expect(JSON.parse(answer.body as string).error).toMatch(/broker unavailable/);
  });

  it('dead-letters raw-topic messages that fail the schema or carry malformed spans, with the reason', async () => {
    await bus.publishRaw('wayfinder.otlp.v1', 'tenant-g:x', JSON.stringify({ schema: 'wayfinder.otlp.v1', eventId: 'e1', tenantId: 'tenant-g', ts: '2026-12-01T12:00:00.000Z', traceId: 'nothex', request: { resourceSpans: [] } }));
    await bus.publish('wayfinder.otlp.v1', [{
      schema: 'wayfinder.otlp.v1', eventId: 'e2', tenantId: 'tenant-g', ts: '2026-12-01T12:00:00.000Z', traceId: 'a'.repeat(32),
      request: { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'a'.repeat(32), spanId: 'short', name: 'x', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] },
    }]);
    await until(() => dlq.length >= 2);
    expect(dlq.find((m) => m.value.includes('"e1"'))?.headers[DLQ_HEADERS.error]).toMatch(/traceId/);
    expect(dlq.find((m) => m.value.includes('"e2"'))?.headers[DLQ_HEADERS.error]).toMatch(/1 span\(s\) rejected: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.spanId \(span short\): must be 16 hex digits/);
  });
});
