/**
 * `wayfinder.otlp.v1`: the raw OTLP spans of one trace as the OTLP receiver accepted them, for the
 * otlp-normalizer service (DESIGN §12). The gateway answers the exporter at once and publishes the spans
 * keyed `tenantId:traceId`, so that a trace's batches reach one normalizer instance in order and scaling
 * is by partition. `request` is an OTLP/JSON ExportTraceServiceRequest holding only that trace's spans
 * (hex ids), checked span by span by `readTraceRequest` of @wayfinder/ingest when consumed.
 */
import { z } from 'zod';
import { envelope } from './common';

export const OTLP_BATCH_SCHEMA = 'wayfinder.otlp.v1' as const;

export const OtlpTraceBatch = z.object({
  ...envelope(OTLP_BATCH_SCHEMA),
  traceId: z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lowercase hex digits'),
  request: z
    .object({ resourceSpans: z.array(z.record(z.unknown())).max(10_000) })
    .passthrough()
    .describe('an OTLP/JSON ExportTraceServiceRequest with the spans of this trace only'),
});

export type OtlpTraceBatch = z.infer<typeof OtlpTraceBatch>;
