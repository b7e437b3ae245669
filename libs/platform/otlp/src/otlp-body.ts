/**
 * An OTLP/HTTP trace export body → the typed request: `application/x-protobuf` or `application/json`,
 * `Content-Encoding: gzip` (or none). The decompressed size is capped so that a small gzip bomb cannot
 * take the process' memory. Every failure is a reason fit for a 400 (or 415 for an unknown media type).
 */
import { gunzipSync } from 'node:zlib';
import type { ExportTraceServiceRequest } from '@wayfinder/ingest';
import { decodeTraceRequestProtobuf } from './otlp-protobuf';

export const MAX_OTLP_BODY_BYTES = 32 * 1024 * 1024;

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
      return { ok: true, request, encoding };
    } catch (error) {
      return { ok: false, status: 400, error: `the body is not a protobuf ExportTraceServiceRequest: ${(error as Error).message}`, encoding };
    }
  }
  try {
    return { ok: true, request: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')), encoding };
  } catch (error) {
    return { ok: false, status: 400, error: `the body is not valid JSON: ${(error as Error).message}`, encoding };
  }
}
