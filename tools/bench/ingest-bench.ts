/**
 * Ingest benchmark: spans per second through OTLP decoding, the span → step mapping and the normalizer
 * (libs/domain/ingest), in process. Synthetic GenAI-convention agent runs (per turn a chat span
 * requesting a tool call and the execute_tool span running it, ~300 bytes of content per span) are
 * exported children-first in batches as an SDK would, then run through:
 *   - json-parse: JSON.parse of the OTLP/JSON bodies alone (the baseline every JSON receiver pays);
 *   - json-read: parse + readTraceRequest (the typed model → span records);
 *   - json-steps: parse + read + OtlpNormalizer.ingest (+ flushAll at the end): spans in, steps out;
 *   - protobuf-steps: the same from OTLP/protobuf bodies (protobufjs decode).
 * Two shapes: many short runs (50 spans a trace, 512-span batches) and one long run exported in small
 * batches (2,000 spans, 10 a batch), where the normalizer maps the trace again at every batch.
 * Run: node bin/run-ts.js tools/bench/ingest-bench.ts [--quick]. Prints one JSON object.
 */
import * as os from 'node:os';
import { OtlpNormalizer, readTraceRequest, type ExportTraceServiceRequest, type KeyValue, type Span } from '@wayfinder/ingest';
import { decodeTraceRequestProtobuf, encodeTraceRequestProtobuf } from '@wayfinder/otlp';

const kv = (key: string, value: string | number): KeyValue => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0').slice(-width);

/** The spans of one run, in export order (children as they end, the agent span last). */
function runSpans(trace: number, turns: number, startNs: bigint): Span[] {
  const traceId = hex(trace + 1, 16) + hex(trace * 7919 + 1, 16);
  const agentId = hex(trace * 1_000_003 + 1, 16);
  const spans: Span[] = [];
  let t = startNs;
  const ns = (ms: number) => BigInt(Math.round(ms * 1e6));
  for (let i = 0; i < turns; i++) {
    const callId = `call_${trace}_${i}`;
    const args = JSON.stringify({ path: `/srv/data/file-${i % 17}.csv`, limit: 100 + (i % 5), mode: 'read' });
    spans.push({
      traceId, spanId: hex(trace * 100_000 + i * 2 + 2, 16), parentSpanId: agentId, name: 'chat gpt-4o', kind: 3,
      startTimeUnixNano: String(t), endTimeUnixNano: String(t + ns(400)),
      attributes: [kv('gen_ai.operation.name', 'chat'), kv('gen_ai.request.model', 'gpt-4o'), kv('gen_ai.usage.input_tokens', 1200 + i), kv('gen_ai.usage.output_tokens', 40),
        kv('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Reading the next file to compare the totals.' }, { type: 'tool_call', id: callId, name: 'read_file', arguments: JSON.parse(args) }] }]))],
      status: {},
    });
    t += ns(410);
    spans.push({
      traceId, spanId: hex(trace * 100_000 + i * 2 + 3, 16), parentSpanId: agentId, name: 'execute_tool read_file', kind: 1,
      startTimeUnixNano: String(t), endTimeUnixNano: String(t + ns(150)),
      attributes: [kv('gen_ai.operation.name', 'execute_tool'), kv('gen_ai.tool.name', 'read_file'), kv('gen_ai.tool.call.id', callId), kv('gen_ai.tool.call.arguments', args),
        kv('gen_ai.tool.call.result', `id,amount,currency\n${i},${(i * 37) % 1000}.50,EUR\n${i + 1},${(i * 53) % 1000}.25,EUR`)],
      status: {},
    });
    t += ns(160);
  }
  spans.push({ traceId, spanId: agentId, name: 'invoke_agent analyst', kind: 1, startTimeUnixNano: String(startNs), endTimeUnixNano: String(t + ns(10)), attributes: [kv('gen_ai.operation.name', 'invoke_agent'), kv('gen_ai.agent.name', 'analyst')], status: {} });
  return spans;
}

function requestOf(spans: Span[]): ExportTraceServiceRequest {
  return { resourceSpans: [{ resource: { attributes: [kv('service.name', 'analyst-service'), kv('wayfinder.agent.id', 'analyst-1')] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] };
}

/** Bodies of one workload: `traces` runs of `turns` turns, cut into batches of `batchSpans` in export order. */
function workload(traces: number, turns: number, batchSpans: number): { spans: number; requests: ExportTraceServiceRequest[] } {
  const all: Span[] = [];
  const start = 1_796_115_600_000_000_000n;
  for (let k = 0; k < traces; k++) all.push(...runSpans(k, turns, start + BigInt(k) * 1_000_000n));
  const requests: ExportTraceServiceRequest[] = [];
  for (let i = 0; i < all.length; i += batchSpans) requests.push(requestOf(all.slice(i, i + batchSpans)));
  return { spans: all.length, requests };
}

function timeIt(label: string, repeats: number, run: () => number): { label: string; seconds: number; steps: number } {
  const times: number[] = [];
  let steps = 0;
  run(); // warm-up
  for (let r = 0; r < repeats; r++) {
    const t0 = process.hrtime.bigint();
    steps = run();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((a, b) => a - b);
  return { label, seconds: times[Math.floor(times.length / 2)], steps };
}

function measure(name: string, traces: number, turns: number, batchSpans: number, repeats: number) {
  const { spans, requests } = workload(traces, turns, batchSpans);
  const bodies = requests.map((r) => JSON.stringify(r));
  const protos = requests.map(encodeTraceRequestProtobuf);
  const clock = { now: () => 0 };
  const toSteps = (decode: (i: number) => unknown) => {
    const normalizer = new OtlpNormalizer(clock);
    let steps = 0;
    for (let i = 0; i < requests.length; i++) {
      const read = readTraceRequest(decode(i));
      if (!read.ok) throw new Error(read.error);
      steps += normalizer.ingest('bench', read.spans).length;
    }
    return steps + normalizer.flushAll().length;
  };
  const rows = [
    timeIt('json-parse', repeats, () => bodies.reduce((n, b) => n + (JSON.parse(b) ? 1 : 0), 0)),
    timeIt('json-read', repeats, () => bodies.reduce((n, b) => { const r = readTraceRequest(JSON.parse(b)); return n + (r.ok ? r.spans.length : 0); }, 0)),
    timeIt('json-steps', repeats, () => toSteps((i) => JSON.parse(bodies[i]))),
    timeIt('protobuf-steps', repeats, () => toSteps((i) => decodeTraceRequestProtobuf(protos[i]))),
  ];
  const baseline = rows[0].seconds;
  return {
    workload: name, traces, spansPerTrace: turns * 2 + 1, batchSpans, spans, requests: requests.length,
    jsonBytesPerSpan: Math.round(bodies.reduce((n, b) => n + b.length, 0) / spans), protobufBytesPerSpan: Math.round(protos.reduce((n, b) => n + b.length, 0) / spans),
    results: rows.map((r) => ({ stage: r.label, spansPerSecond: Math.round(spans / r.seconds), timeVsJsonParse: Number((r.seconds / baseline).toFixed(2)), ...(r.label.endsWith('steps') ? { steps: r.steps } : {}) })),
  };
}

const quick = process.argv.includes('--quick');
const repeats = quick ? 1 : 5;
const report = {
  benchmark: 'ingest',
  runs: [measure('short runs', quick ? 200 : 2_000, 25, 512, repeats), measure('one long run, small batches', 1, quick ? 250 : 1_000, 10, repeats)],
  repeats,
  node: process.version,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
};
process.stdout.write(JSON.stringify(report, null, 2) + '\n');
