/**
 * Request bodies read by the gateway itself (Nest's body parser is off): a limit of its own, JSON and
 * NDJSON, and errors in the API's shape instead of the parser's HTML page.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from './api-error';

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return (await readRawBody(req, maxBytes)).toString('utf8');
}

/** The body's bytes as sent (still compressed when it was: `POST /v1/traces` decodes gzip itself). */
export async function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new ApiError(413, { error: `the body is ${declared} bytes; at most ${maxBytes} are accepted` });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new ApiError(413, { error: `the body exceeds ${maxBytes} bytes` });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function isNdjson(req: IncomingMessage): boolean {
  return /application\/(x-)?ndjson|application\/jsonl/i.test(String(req.headers['content-type'] ?? ''));
}

/** A JSON body (an empty body is `undefined`), or 400 naming where it stopped parsing. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`the body is not JSON: ${(error as Error).message}`);
  }
}

/** JSON passed on to another server: read if it parses (to look at), undefined if not (the server answers it). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The items of a batch body: a JSON array, one JSON object, or NDJSON lines. A line of NDJSON that does
 * not parse is that item's error, not the whole request's (the other lines are still accepted).
 */
export function batchItems(text: string, ndjson: boolean): Array<{ value?: unknown; error?: string }> {
  if (!ndjson) {
    const parsed = parseJson(text);
    if (parsed === undefined) throw badRequest('the body is empty: send a JSON array of step events, one event, or NDJSON');
    return (Array.isArray(parsed) ? parsed : [parsed]).map((value) => ({ value }));
  }
  const items: Array<{ value?: unknown; error?: string }> = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      items.push({ value: JSON.parse(line) });
    } catch (error) {
      items.push({ error: `the line is not JSON: ${(error as Error).message}` });
    }
  }
  if (items.length === 0) throw badRequest('the body is empty: send a JSON array of step events, one event, or NDJSON');
  return items;
}
