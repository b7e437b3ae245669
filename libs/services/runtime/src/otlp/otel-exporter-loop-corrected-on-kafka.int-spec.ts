/**
 * Zero-code ingest end to end on the real Kafka broker (and Redis), short of the gateway's HTTP route:
 * a scripted agent run of 25 identical tool calls recorded with the OpenTelemetry JS SDK is sent by the
 * SDK's own OTLP/HTTP protobuf exporter (gzip) to a local HTTP server standing in for `POST /v1/traces`,
 * which calls OtlpExportHandler. The first attempt of one batch is answered 503 after its spans were
 * accepted, so the exporter sends that batch again. The otlp-normalizer service turns the spans into
 * steps; the distributed services detect the loop and the agent gets a correction; its steps appear once each.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExportResultCode } from '@opentelemetry/core';
import type { Correction, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from '../runtime';
import { recordAgentRun } from '@wayfinder/otlp/testing';
import { requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { OtlpExportHandler, startOtlpNormalizer, type RunningOtlpNormalizer } from '@wayfinder/service-otlp-normalizer';

describe('an OpenTelemetry-exported looping agent, through OTLP ingest, on Kafka', () => {
  const prefix = `${uniqueTestName('otlp')}.`;
  let running: RunningServices;
  let ingestBus: KafkaBus;
  let observer: KafkaBus;
  let normalizer: RunningOtlpNormalizer;
  let server: Server;
  let url: string;
  const steps: StepEvent[] = [];
  const corrections: Correction[] = [];
  const requests: { status: number; bytes: number }[] = [];

  beforeAll(async () => {
    const brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
    observer.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload)), { groupId: 'observer-steps' });
    observer.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'observer-corrections' });
    await observer.start();
    ingestBus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'otlp-ingest' });
    normalizer = startOtlpNormalizer({ bus: ingestBus, groupId: `${prefix}otlp-normalizer`, tickMs: 200 });
    await ingestBus.start();
    const config = loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_SERVICES: 'task-parser,state-localizer,detector-worker,correction-engine' });
    running = await startServices(config, { logger: false });

    const handler = new OtlpExportHandler(ingestBus);
    let refusedOnce = false;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = Buffer.concat(chunks);
          const answer = await handler.handleOtlpExport(body, req.headers['content-type'], req.headers['content-encoding'] as string | undefined, 'acme');
          // The second batch was accepted, but its answer "got lost": the exporter retries it.
          const status = requests.length === 1 && !refusedOnce ? 503 : answer.status;
          if (status === 503 && answer.status === 200) refusedOnce = true;
          requests.push({ status, bytes: body.length });
          res.writeHead(status, status === 503 ? { 'content-type': 'application/json', 'retry-after': '0' } : answer.headers);
          res.end(status === 503 ? JSON.stringify({ error: 'try again' }) : Buffer.from(answer.body));
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  });

  afterAll(async () => {
    server?.close();
    await normalizer?.stop();
    await running?.stop();
    await ingestBus?.stop();
    await observer?.stop();
  });

  it('corrects the agent, and publishes each of its steps once although a batch was sent twice', async () => {
    const task: TaskSpec = { schema: 'wayfinder.task.v1', eventId: 'otlp-task', tenantId: 'acme', ts: new Date().toISOString(), taskId: 'ticket-501', goal: 'find the open order -> refund it -> confirm to the customer' };
    await running.bus.publish('wayfinder.tasks.v1', [task]);
    const calls = Array.from({ length: 25 }, () => ({ tool: 'lookup_order', args: { customer: 'c-88', status: 'open' }, result: 'no open order found' }));
    const spans = await recordAgentRun({ agentName: 'refund-bot', conversationId: 'ticket-501', calls, startMs: Date.now() - 60_000 });
    const exporter = new OTLPTraceExporter({ url, compression: 'gzip' as never });
    for (let i = 0; i < spans.length; i += 16) {
      const code = await new Promise<ExportResultCode>((resolve) => exporter.export(spans.slice(i, i + 16), (result) => resolve(result.code)));
      expect(code).toBe(ExportResultCode.SUCCESS);
    }
    await exporter.shutdown();
    expect(requests.map((r) => r.status)).toEqual([200, 503, 200, 200, 200]);

    await until(() => corrections.some((c) => c.agentId === 'refund-bot'), 30_000, 'a correction for refund-bot');
    expect(corrections.find((c) => c.agentId === 'refund-bot')).toMatchObject({ tenantId: 'acme', taskId: 'ticket-501' });
    await until(() => steps.filter((s) => s.agentId === 'refund-bot').length >= 50, 30_000, 'the 50 steps');
    await new Promise((r) => setTimeout(r, 1_000));
    const mine = steps.filter((s) => s.agentId === 'refund-bot');
    expect(mine).toHaveLength(50);
    expect(new Set(mine.map((s) => s.eventId)).size).toBe(50);
    expect(normalizer.normalizer.stats.duplicates).toBe(16);
  });
});
