/**
 * An agent run of 25 identical tool calls recorded with the OpenTelemetry SDK and encoded by its own OTLP
 * serializers → `wayfinder ingest otlp` → `wayfinder replay` flags the loop; a batch sent twice gives
 * each step once; the protobuf (gzip) export gives the same steps as the JSON one.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { StepEvent } from '@wayfinder/contracts';
import { otlpJsonBatches, otlpProtobufBatches, recordAgentRun } from '@wayfinder/otlp/testing';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

describe('wayfinder ingest otlp on a looping agent exported by the OpenTelemetry SDK', () => {
  let dir: string;
  let jsonFile: string;
  let protoFiles: string[];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wf-ingest-'));
    const calls = Array.from({ length: 25 }, () => ({ tool: 'search_orders', args: { customer: 'c-1042', status: 'open' }, result: 'no orders found' }));
    const spans = await recordAgentRun({ agentName: 'order-bot', conversationId: 'ticket-88', calls });
    const batches = otlpJsonBatches(spans, 8);
    // The exporter retried its second batch: it arrives twice.
    jsonFile = path.join(dir, 'traces.jsonl');
    await fs.writeFile(jsonFile, [batches[0], batches[1], batches[1], ...batches.slice(2)].join('\n') + '\n');
    protoFiles = [];
    for (const [i, body] of otlpProtobufBatches(spans, 8).entries()) {
      const file = path.join(dir, `batch-${i}.pb.gz`);
      await fs.writeFile(file, gzipSync(body));
      protoFiles.push(file);
    }
  });

  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function ingest(files: string[]): Promise<StepEvent[]> {
    const io = captureIo();
    expect(await runCli(['ingest', 'otlp', ...files, '--tenant', 'acme'], io)).toBe(0);
    expect(io.err()).toBe('');
    return io.out().trimEnd().split('\n').map((line) => JSON.parse(line));
  }

  it('prints each step once, in order, for the agent and task of the trace', async () => {
    const steps = await ingest([jsonFile]);
    expect(steps.filter((s) => s.kind === 'action')).toHaveLength(25);
    expect(steps.filter((s) => s.kind === 'observation')).toHaveLength(25);
    expect(steps).toHaveLength(50);
    expect(new Set(steps.map((s) => s.eventId)).size).toBe(50);
    expect(steps.map((s) => s.seq)).toEqual(steps.map((_, i) => i));
    for (const s of steps) expect(s).toMatchObject({ tenantId: 'acme', agentId: 'order-bot', taskId: 'ticket-88' });
  });

  it('gives the same steps from the gzip-compressed protobuf export', async () => {
    expect(await ingest(protoFiles)).toEqual(await ingest([jsonFile]));
  });

  it('feeds wayfinder replay, which flags the loop', async () => {
    const stepsFile = path.join(dir, 'steps.jsonl');
    await fs.writeFile(stepsFile, (await ingest([jsonFile])).map((s) => JSON.stringify(s)).join('\n') + '\n');
    const io = captureIo();
    expect(await runCli(['replay', stepsFile], io)).toBe(0);
    expect(io.err()).toBe('');
    const deviations = io.out().trimEnd().split('\n').map((line) => JSON.parse(line));
    const loops = deviations.filter((d) => d.agentId === 'order-bot' && ['generic_repeat', 'global_circuit_breaker'].includes(d.detector));
    expect(loops.length).toBeGreaterThan(0);
    expect(loops.some((d) => d.level === 'critical')).toBe(true);
  });
});
