/**
 * Sizes on the wire shared by the Kafka adapters (KafkaBus, PlatformaticBus): both cap a produce request
 * at MAX_REQUEST_BYTES and estimate a message's size the same way.
 */

/** Below the broker's default message.max.bytes (1 MiB) for one partition's batch. */
export const MAX_REQUEST_BYTES = 512 * 1024;

/** Per-record (and per-header) framing on the wire: varints, attributes, deltas. */
export const RECORD_OVERHEAD = 16;

type Sized = { readonly length: number };

/** What a message of either client looks like, for its size. */
export interface SizedMessage {
  readonly value?: Sized | null;
  readonly key?: Sized | null;
  readonly headers?: Readonly<Record<string, Sized | readonly Sized[] | undefined>> | ReadonlyMap<string, Sized> | null;
}

/** Bytes of a message on the wire, roughly: value, key and headers (DLQ messages carry kilobytes of headers). */
export function messageSize(m: SizedMessage): number {
  let bytes = (m.value?.length ?? 0) + (m.key?.length ?? 0) + RECORD_OVERHEAD;
  if (m.headers) {
    const headers: Iterable<[string, Sized | readonly Sized[] | undefined]> = m.headers instanceof Map ? m.headers.entries() : Object.entries(m.headers);
    for (const [name, value] of headers) {
      bytes += name.length + RECORD_OVERHEAD;
      if (Array.isArray(value)) for (const v of value as readonly Sized[]) bytes += v.length;
      else if (value !== undefined) bytes += (value as Sized).length;
    }
  }
  return bytes;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
