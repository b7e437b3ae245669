/**
 * Bytes on the wire: JSON encoding of payloads, validation of incoming bytes against the topic's schema,
 * and the headers of a dead-lettered message. Shared by both adapters so that they fail the same way.
 */
import { DLQ_HEADERS, parsePayload, type PayloadOf, type TopicName } from '@wayfinder/contracts';

export function encodePayload(payload: unknown): Buffer {
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

export type Decoded<P> = { ok: true; payload: P } | { ok: false; error: string };

/** Never throws: anything wrong with the bytes becomes the reason written to the DLQ. */
export function decodePayload<T extends TopicName>(topic: T, value: Buffer | null): Decoded<PayloadOf<T>> {
  if (value === null || value.length === 0) return { ok: false, error: 'invalid message: empty value' };
  let raw: unknown;
  try {
    raw = JSON.parse(value.toString('utf8'));
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${messageOf(error)}` };
  }
  const parsed = parsePayload(topic, raw);
  return parsed.ok ? { ok: true, payload: parsed.value } : { ok: false, error: `schema violation: ${parsed.error}` };
}

export interface DeadLetterSource {
  /** The topic as it exists on the transport (with any namespace prefix): where the offset is meaningful. */
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

const MAX_ERROR_HEADER_CHARS = 2_000;

/** The original headers plus DLQ_HEADERS saying where the message came from and why it is here. */
export function deadLetterHeaders(
  source: DeadLetterSource,
  error: string,
  attempts: number,
  original: Readonly<Record<string, string>> = {},
  now: Date = new Date(),
): Record<string, string> {
  return {
    ...original,
    [DLQ_HEADERS.sourceTopic]: source.topic,
    [DLQ_HEADERS.sourcePartition]: String(source.partition),
    [DLQ_HEADERS.sourceOffset]: source.offset,
    [DLQ_HEADERS.error]: error.length > MAX_ERROR_HEADER_CHARS ? `${error.slice(0, MAX_ERROR_HEADER_CHARS)}…` : error,
    [DLQ_HEADERS.timestamp]: now.toISOString(),
    [DLQ_HEADERS.attempts]: String(attempts),
  };
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

/** Kafka header values arrive as Buffer, string or arrays of them; handlers get plain strings. */
export function headersToStrings(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first === undefined || first === null) continue;
    out[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return out;
}
