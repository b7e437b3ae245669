/**
 * OTLP/protobuf trace export decoding into the typed model of `@wayfinder/ingest` (the one the JSON
 * encoding gives): ids as lowercase hex, 64-bit integers as decimal strings, bytes values as base64,
 * enums as numbers, unset fields absent. And the protobuf encoding of the export response.
 */
import * as protobuf from 'protobufjs';
import type { ExportTraceServiceRequest, ExportTraceServiceResponse } from '@wayfinder/ingest';
import { OTLP_RESOURCE_PROTO, OTLP_SPANS_PROTO, OTLP_TRACE_PROTO, OTLP_TRACE_SERVICE_PROTO, RPC_STATUS_PROTO } from './otlp-trace-proto';

const root = new protobuf.Root();
for (const source of [OTLP_TRACE_PROTO, OTLP_RESOURCE_PROTO, OTLP_SPANS_PROTO, OTLP_TRACE_SERVICE_PROTO, RPC_STATUS_PROTO]) {
  protobuf.parse(source, root, { keepCase: false });
}
root.resolveAll();

const RequestType = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const ResponseType = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
const StatusType = root.lookupType('google.rpc.Status');

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: Number, bytes: String, defaults: false, arrays: false, oneofs: false };

/** Decodes a protobuf `ExportTraceServiceRequest`; throws (with protobufjs' reason) on malformed bytes. */
export function decodeTraceRequestProtobuf(bytes: Uint8Array): ExportTraceServiceRequest {
  const message = RequestType.decode(bytes);
  const request = RequestType.toObject(message, TO_OBJECT) as ExportTraceServiceRequest;
  for (const rs of request.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        span.traceId = hexOfBase64(span.traceId);
        span.spanId = hexOfBase64(span.spanId);
        if (span.parentSpanId !== undefined) span.parentSpanId = hexOfBase64(span.parentSpanId);
        for (const link of span.links ?? []) {
          if (link.traceId !== undefined) link.traceId = hexOfBase64(link.traceId);
          if (link.spanId !== undefined) link.spanId = hexOfBase64(link.spanId);
        }
        // Absent in proto3 when zero: the JSON model's required times read as "0".
        span.startTimeUnixNano ??= '0';
        span.endTimeUnixNano ??= '0';
        span.name ??= '';
        span.traceId ??= '';
        span.spanId ??= '';
      }
    }
  }
  return request;
}

/** Encodes the typed request as protobuf (hex ids to bytes): for benchmarks and tests of the decoder. */
export function encodeTraceRequestProtobuf(request: ExportTraceServiceRequest): Uint8Array {
  const bytes = (hex: string | undefined) => (hex ? Buffer.from(hex, 'hex') : undefined);
  const copy = {
    resourceSpans: (request.resourceSpans ?? []).map((rs) => ({
      ...rs,
      scopeSpans: (rs.scopeSpans ?? []).map((ss) => ({
        ...ss,
        spans: (ss.spans ?? []).map((span) => ({
          ...span,
          traceId: bytes(span.traceId),
          spanId: bytes(span.spanId),
          parentSpanId: bytes(span.parentSpanId),
          links: span.links?.map((link) => ({ ...link, traceId: bytes(link.traceId), spanId: bytes(link.spanId) })),
        })),
      })),
    })),
  };
  return RequestType.encode(RequestType.fromObject(copy)).finish();
}

export function encodeTraceResponseProtobuf(response: ExportTraceServiceResponse): Uint8Array {
  const partial = response.partialSuccess;
  const value = partial
    ? { partialSuccess: { rejectedSpans: Number(partial.rejectedSpans ?? 0), errorMessage: partial.errorMessage ?? '' } }
    : {};
  return ResponseType.encode(ResponseType.fromObject(value)).finish();
}

export function decodeTraceResponseProtobuf(bytes: Uint8Array): ExportTraceServiceResponse {
  return ResponseType.toObject(ResponseType.decode(bytes), TO_OBJECT) as ExportTraceServiceResponse;
}

function hexOfBase64(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  return Buffer.from(value, 'base64').toString('hex');
}

/** gRPC status codes an OTLP/HTTP error maps to (the `code` of google.rpc.Status). */
export function rpcCodeOf(httpStatus: number): number {
  if (httpStatus === 400 || httpStatus === 413 || httpStatus === 415) return 3; // INVALID_ARGUMENT
  if (httpStatus === 401) return 16; // UNAUTHENTICATED
  if (httpStatus === 403) return 7; // PERMISSION_DENIED
  if (httpStatus === 429) return 8; // RESOURCE_EXHAUSTED
  if (httpStatus === 503) return 14; // UNAVAILABLE
  return 13; // INTERNAL
}

/** The protobuf body of a failed OTLP/HTTP protobuf request: a google.rpc.Status. */
export function encodeRpcStatusProtobuf(status: { code: number; message: string }): Uint8Array {
  return StatusType.encode(StatusType.fromObject(status)).finish();
}

export function decodeRpcStatusProtobuf(bytes: Uint8Array): { code?: number; message?: string } {
  return StatusType.toObject(StatusType.decode(bytes), TO_OBJECT) as { code?: number; message?: string };
}
