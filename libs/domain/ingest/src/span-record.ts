/**
 * The decoded span the mapping works on: attributes as plain values (AnyValue unwrapped), times in
 * microseconds since the epoch (a double holds them exactly until the year 2255), the resource's
 * attributes beside the span's own, and nothing of the wire encoding left.
 */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

export interface SpanEventRecord {
  name: string;
  timeUs: number;
  attributes: Attributes;
}

export interface SpanRecord {
  traceId: string;
  spanId: string;
  /** Absent for a root span. */
  parentSpanId?: string;
  name: string;
  startUs: number;
  endUs: number;
  attributes: Attributes;
  resource: Attributes;
  scope?: string;
  events: SpanEventRecord[];
  /** 0 unset, 1 ok, 2 error. */
  statusCode: 0 | 1 | 2;
  statusMessage?: string;
}

/** A span left out of a request, with where it was and why (the OTLP partial-success answer names them). */
export interface RejectedSpan {
  /** JSON path in the request, e.g. `resourceSpans[0].scopeSpans[0].spans[3].spanId`. */
  field: string;
  reason: string;
  traceId?: string;
  spanId?: string;
}
