/**
 * The OTLP/HTTP trace export handler (DESIGN §12) that the gateway's `POST /v1/traces` route calls with
 * the raw body, its Content-Type and Content-Encoding, and the tenant its key resolved to. It decodes the
 * body (protobuf or JSON, gzip), checks it span by span, publishes the accepted spans on
 * `wayfinder.otlp.v1` per trace (keyed `tenantId:traceId`) and answers per the OTLP specification:
 * 200 with an ExportTraceServiceResponse in the request's encoding, `partialSuccess` naming the rejected
 * spans when some were; 400 (413, 415) for a body that cannot be read; 429 with Retry-After when the
 * tenant is over its ingest limit (`admit`); 503 with Retry-After when the bus does not take the spans.
 * Error bodies follow the request's encoding: a protobuf request gets a protobuf google.rpc.Status
 * (`code`, `message`), a JSON one the API's `{error, field?}`. The tenant never comes from the body.
 */
import { randomUUID } from 'node:crypto';
import { OTLP_BATCH_SCHEMA, type OtlpTraceBatch } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { readTraceRequest, requestsByTrace, type ExportTraceServiceRequest, type ExportTraceServiceResponse, type RejectedSpan } from '@wayfinder/ingest';
import { decodeOtlpBody, encodeRpcStatusProtobuf, encodingOf, encodeTraceResponseProtobuf, rpcCodeOf, type OtlpEncoding } from '@wayfinder/otlp';

export interface OtlpExportAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

export interface OtlpExportOptions {
  /** Spans per published message (a trace larger than this is published in several). */
  maxSpansPerMessage?: number;
  /** Seconds in Retry-After when the bus refuses (back-pressure, broker down). */
  retryAfterSeconds?: number;
  now?: () => number;
  /**
   * Takes `spans` from the tenant's ingest limit: undefined when admitted, else the refusal (429 with
   * Retry-After; 413 when one request is larger than the tenant's burst).
   */
  admit?: (tenantId: string, spans: number) => { status: 413 | 429; error: string; retryAfterSeconds?: number } | undefined;
}

const MAX_NAMED_REJECTIONS = 10;

export class OtlpExportHandler {
  constructor(
    private readonly bus: Bus,
    private readonly options: OtlpExportOptions = {},
  ) {}

  async handleOtlpExport(body: Uint8Array, contentType: string | undefined, contentEncoding: string | undefined, tenantId: string): Promise<OtlpExportAnswer> {
    const asked = encodingOf(contentType) ?? 'json';
    const decoded = decodeOtlpBody(body, contentType, contentEncoding);
    if (!decoded.ok) return errorAnswer(asked, decoded.status, decoded.error);
    const read = readTraceRequest(decoded.request);
    if (!read.ok) return errorAnswer(asked, 400, read.error, read.field);
    const refused = read.spans.length > 0 ? this.options.admit?.(tenantId, read.spans.length) : undefined;
    if (refused) {
      const answer = errorAnswer(asked, refused.status, refused.error);
      return refused.retryAfterSeconds === undefined ? answer : { ...answer, headers: { ...answer.headers, 'retry-after': String(refused.retryAfterSeconds) } };
    }
    const traces = requestsByTrace(decoded.request as ExportTraceServiceRequest, read.rejected, this.options.maxSpansPerMessage ?? 512);
    const ts = new Date((this.options.now ?? Date.now)()).toISOString();
    const batches: OtlpTraceBatch[] = traces.map(({ traceId, request }) => ({
      schema: OTLP_BATCH_SCHEMA,
      eventId: randomUUID(),
      tenantId,
      ts,
      traceId,
      request: request as OtlpTraceBatch['request'],
    }));
    if (batches.length > 0) {
      try {
        await this.bus.publish('wayfinder.otlp.v1', batches);
      } catch (error) {
        const seconds = this.options.retryAfterSeconds ?? 1;
        const answer = errorAnswer(asked, 503, `the spans could not be queued, retry later: ${(error as Error).message}`);
        return { ...answer, headers: { ...answer.headers, 'retry-after': String(seconds) } };
      }
    }
    return successAnswer(decoded.encoding, read.rejected);
  }
}

function successAnswer(encoding: OtlpEncoding, rejected: readonly RejectedSpan[]): OtlpExportAnswer {
  const response: ExportTraceServiceResponse = rejected.length > 0 ? { partialSuccess: { rejectedSpans: String(rejected.length), errorMessage: rejectionMessage(rejected) } } : {};
  if (encoding === 'protobuf') return { status: 200, headers: { 'content-type': 'application/x-protobuf' }, body: encodeTraceResponseProtobuf(response) };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(response) };
}

/** `2 span(s) rejected: resourceSpans[0]…spans[3].spanId: must be …; …` (the first ten named). */
export function rejectionMessage(rejected: readonly RejectedSpan[]): string {
  const named = rejected.slice(0, MAX_NAMED_REJECTIONS).map((r) => `${r.field}${r.spanId ? ` (span ${r.spanId})` : ''}: ${r.reason}`);
  const more = rejected.length > MAX_NAMED_REJECTIONS ? `; and ${rejected.length - MAX_NAMED_REJECTIONS} more` : '';
  return `${rejected.length} span(s) rejected: ${named.join('; ')}${more}`;
}

function errorAnswer(encoding: OtlpEncoding, status: number, error: string, field?: string): OtlpExportAnswer {
  if (encoding === 'protobuf') return { status, headers: { 'content-type': 'application/x-protobuf' }, body: encodeRpcStatusProtobuf({ code: rpcCodeOf(status), message: field && !error.startsWith(field) ? `${field}: ${error}` : error }) };
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error, ...(field ? { field } : {}) }) };
}
