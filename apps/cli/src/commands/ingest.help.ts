/** `wayfinder ingest`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const ingestHelp: CommandHelp = {
  name: 'ingest',
  summary: 'map OTLP trace files (GenAI, OpenInference, AI SDK spans) to step events as JSON lines',
  usage: `usage: wayfinder ingest otlp FILE… [--tenant T]

Reads OTLP trace export files (ExportTraceServiceRequest): protobuf, JSON, or JSON lines with one request
per line, any of them gzip-compressed. Maps the spans of the OpenTelemetry GenAI conventions, OpenInference
and the Vercel AI SDK to wayfinder.step.v1 events, orders them by event time per trace, and writes one
step per line to stdout, e.g.

  wayfinder ingest otlp traces.jsonl > steps.jsonl && wayfinder replay steps.jsonl
  wayfinder ingest otlp traces.pb | wayfinder replay /dev/stdin

A malformed file, line or span is reported on stderr as FILE:LINE with the reason and skipped.

options:
  --tenant T   the tenantId of the steps (default: local)
`,
};
