/**
 * POST /v1/traces in distributed mode on the real Kafka broker and Redis, every service in this process
 * (the default list, the otlp-normalizer included in its own consumer group): the OpenTelemetry JS SDK's
 * OTLP/HTTP protobuf exporter (gzip) sends a scripted run of 25 identical tool calls with tenant A's key;
 * the agent gets a correction, its 50 steps appear once each on the steps topic, and B's key reads none.
 */
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { loadConfig } from '@wayfinder/config';
import type { StepEvent } from '@wayfinder/contracts';
import { recordAgentRun } from '@wayfinder/otlp/testing';
import { until } from '@wayfinder/testing';
import { call, eventually, startGatewayOnKafka, type GatewayOnKafka } from './gateway.testing';

const A = 'acme-otlp-dist-key';
const B = 'globex-otlp-dist-key';

describe('POST /v1/traces in distributed mode', () => {
  let kafka: GatewayOnKafka;
  let base: string;
  let steps: StepEvent[];

  beforeAll(async () => {
    // Distributed mode runs the OTLP normalizer: the spans posted here become steps on Kafka.
    expect(loadConfig({ WAYFINDER_MODE: 'distributed' }).services).toContain('otlp-normalizer');
    kafka = await startGatewayOnKafka('otlp-gw', { WAYFINDER_API_KEYS: `acme:${A},globex:${B}` });
    ({ base, steps } = kafka);
  }, 120_000);

  afterAll(async () => {
    await kafka?.stop();
  });

  it('corrects the agent and publishes each of its steps once', async () => {
    expect((await call(base, 'POST', '/v1/tasks', { key: A, body: { taskId: 'ticket-601', goal: 'find the open order -> refund it -> confirm to the customer' } })).status).toBe(201);
    const calls = Array.from({ length: 25 }, () => ({ tool: 'lookup_order', args: { customer: 'c-88', status: 'open' }, result: 'no open order found' }));
    const spans = await recordAgentRun({ agentName: 'refund-bot', conversationId: 'ticket-601', calls, startMs: Date.now() - 60_000 });
    const exporter = new OTLPTraceExporter({ url: `${base}/v1/traces`, compression: 'gzip' as never, headers: { Authorization: `Bearer ${A}` } });
    for (let i = 0; i < spans.length; i += 16) {
      const code = await new Promise<ExportResultCode>((resolve) => exporter.export(spans.slice(i, i + 16), (result) => resolve(result.code)));
      expect(code).toBe(ExportResultCode.SUCCESS);
    }
    await exporter.shutdown();

    await eventually(async () => (await call(base, 'GET', '/v1/agents/refund-bot/corrections', { key: A })).body.corrections.length > 0, 60_000, 'a correction for refund-bot');
    expect((await call(base, 'GET', '/v1/agents/refund-bot/corrections', { key: A })).body.corrections[0]).toMatchObject({ tenantId: 'acme', taskId: 'ticket-601' });
    await until(() => steps.filter((s) => s.agentId === 'refund-bot').length >= 50, 30_000, 'the 50 steps');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const mine = steps.filter((s) => s.agentId === 'refund-bot');
    expect(mine).toHaveLength(50);
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(50);
    expect(await call(base, 'GET', '/v1/agents/refund-bot/corrections', { key: B })).toMatchObject({ status: 200, body: { corrections: [] } });
  }, 90_000);
});
