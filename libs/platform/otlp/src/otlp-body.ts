/**
 * An OTLP/HTTP trace export body → the typed request: `application/x-protobuf` or `application/json`,
 * `Content-Encoding: gzip` (or none). The decompressed size is capped so that a small gzip bomb cannot
 * take the process' memory, and the nesting is bounded (MAX_OTLP_ANY_VALUE_DEPTH levels of AnyValue
 * arrays/kvlists, MAX_OTLP_JSON_DEPTH levels in all) so that no later recursive step (validation,
 * serialization on the bus) meets an over-deep value. Every failure is a reason fit for a 400 (or 415 for an
 * unknown media type): an exporter does not retry a 400.
 */
import { gunzipSync } from 'node:zlib';
import type { ExportTraceServiceRequest } from '@wayfinder/ingest';
import { decodeTraceRequestProtobuf } from './otlp-protobuf';

export const MAX_OTLP_BODY_BYTES = 32 * 1024 * 1024;

/** Deepest nesting of AnyValue `arrayValue` / `kvlistValue` accepted (attributes, event and link attributes, bodies). */
export const MAX_OTLP_ANY_VALUE_DEPTH = 64;
/** Deepest nesting of objects and arrays in all (unknown fields included). */
export const MAX_OTLP_JSON_DEPTH = 512;

export type OtlpEncoding = 'protobuf' | 'json';

export type OtlpBodyResult =
  | { ok: true; request: unknown; encoding: OtlpEncoding }
  | { ok: false; status: 400 | 413 | 415; error: string; encoding: OtlpEncoding };

/** The encoding a Content-Type names; undefined for a media type OTLP/HTTP does not use. */
export function encodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const media = (contentType ?? '').split(';', 1)[0].trim().toLowerCase();
  if (media === 'application/x-protobuf' || media === 'application/protobuf') return 'protobuf';
  if (media === 'application/json') return 'json';
  return undefined;
}

/**
 * Decodes the body. A JSON body is returned parsed but not yet checked (`readTraceRequest` of
 * `@wayfinder/ingest` checks it span by span); a protobuf body is the typed request.
 */
export function decodeOtlpBody(body: Uint8Array, contentType: string | undefined, contentEncoding: string | undefined, maxBytes = MAX_OTLP_BODY_BYTES): OtlpBodyResult {
  const encoding = encodingOf(contentType);
  if (!encoding) return { ok: false, status: 415, error: `Content-Type must be application/x-protobuf or application/json, got '${contentType ?? ''}'`, encoding: 'json' };
  let bytes: Uint8Array = body;
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  if (coding === 'gzip') {
    try {
      bytes = gunzipSync(body, { maxOutputLength: maxBytes });
    } catch (error) {
      const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || /larger than|maxOutputLength/i.test((error as Error).message);
      return tooLarge
        ? { ok: false, status: 413, error: `the decompressed body is larger than ${maxBytes} bytes`, encoding }
        : { ok: false, status: 400, error: `the body is not valid gzip: ${(error as Error).message}`, encoding };
    }
  } else if (coding !== '' && coding !== 'identity') {
    return { ok: false, status: 415, error: `Content-Encoding must be gzip or none, got '${contentEncoding}'`, encoding };
  }
  if (bytes.byteLength > maxBytes) return { ok: false, status: 413, error: `the body is larger than ${maxBytes} bytes`, encoding };
  if (encoding === 'protobuf') {
    try {
      const request: ExportTraceServiceRequest = decodeTraceRequestProtobuf(bytes);
      const tooDeep = nestingProblem(request);
      return tooDeep ? { ok: false, status: 400, error: tooDeep, encoding } : { ok: true, request, encoding };
    } catch (error) {
      return { ok: false, status: 400, error: `the body is not a protobuf ExportTraceServiceRequest: ${(error as Error).message}`, encoding };
    }
  }
  let request: unknown;
  try {
    request = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (error) {
    return { ok: false, status: 400, error: `the body is not valid JSON: ${(error as Error).message}`, encoding };
  }
  const tooDeep = nestingProblem(request);
  return tooDeep ? { ok: false, status: 400, error: tooDeep, encoding } : { ok: true, request, encoding };
}

/**
 * The reason a decoded request is nested too deep, or undefined. Walks with an explicit stack (no recursion,
 * so the check itself cannot overflow) and stops at the first level past a bound.
 */
export function nestingProblem(request: unknown, maxAnyValueDepth = MAX_OTLP_ANY_VALUE_DEPTH, maxDepth = MAX_OTLP_JSON_DEPTH): string | undefined {
  const stack: Array<{ value: unknown; depth: number; anyDepth: number }> = [{ value: request, depth: 0, anyDepth: 0 }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { value, depth, anyDepth } = entry;
    if (value === null || typeof value !== 'object') continue;
    if (anyDepth > maxAnyValueDepth) return `an attribute value is nested deeper than ${maxAnyValueDepth} levels of arrayValue/kvlistValue`;
    if (depth > maxDepth) return `the body is nested deeper than ${maxDepth} levels`;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, anyDepth });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (item !== null && typeof item === 'object') stack.push({ value: item, depth: depth + 1, anyDepth: key === 'arrayValue' || key === 'kvlistValue' ? anyDepth + 1 : anyDepth });
    }
  }
  return undefined;
}
