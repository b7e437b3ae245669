/**
 * Reads the OTLP trace files of `wayfinder ingest otlp`: protobuf (one ExportTraceServiceRequest per
 * file), JSON (one request per file, pretty-printed or not) or JSON lines (one request per line), any of
 * them gzip-compressed. The encoding is recognized from the bytes (gzip magic, then `{` for JSON), not
 * the file name. Each request comes with the line it started on (1 for a whole-file request), so a bad
 * one is reported as FILE:LINE.
 */
import { promises as fs } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { decodeOtlpBody, MAX_OTLP_BODY_BYTES } from '@wayfinder/otlp';

export type OtlpFileItem = { line: number; request: unknown } | { line: number; error: string };

export async function readOtlpFile(file: string): Promise<OtlpFileItem[]> {
  let bytes: Buffer = await fs.readFile(file);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: 16 * MAX_OTLP_BODY_BYTES });
    } catch (error) {
      return [{ line: 1, error: `not valid gzip: ${(error as Error).message}` }];
    }
  }
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (i === bytes.length) return [];
  if (bytes[i] !== 0x7b) {
    const decoded = decodeOtlpBody(bytes, 'application/x-protobuf', undefined, 16 * MAX_OTLP_BODY_BYTES);
    return [decoded.ok ? { line: 1, request: decoded.request } : { line: 1, error: `${decoded.error} (not JSON either: it does not start with '{')` }];
  }
  const text = bytes.toString('utf8');
  try {
    return [{ line: 1, request: JSON.parse(text) }];
  } catch {
    // Not one JSON document: JSON lines, one request per line.
  }
  const items: OtlpFileItem[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (line.length === 0) continue;
    try {
      items.push({ line: n + 1, request: JSON.parse(line) });
    } catch (error) {
      items.push({ line: n + 1, error: `invalid JSON: ${(error as Error).message}` });
    }
  }
  return items;
}
