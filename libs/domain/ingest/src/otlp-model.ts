/**
 * A typed model of OTLP trace export requests as the OTLP/HTTP JSON encoding writes them
 * (opentelemetry-proto `ExportTraceServiceRequest`, proto3 JSON mapping with OTLP's exceptions): trace and
 * span ids in hex, 64-bit integers (`intValue`, `*TimeUnixNano`) as decimal strings (numbers accepted),
 * enums as integers, and `AnyValue` as exactly one of its variants. The protobuf decoder
 * (`libs/platform/otlp`) produces this same model, so everything after decoding has one input shape.
 */

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string | number }
  | { doubleValue: number }
  | { arrayValue: ArrayValue }
  | { kvlistValue: KeyValueList }
  | { bytesValue: string };

export interface ArrayValue {
  values?: AnyValue[];
}

export interface KeyValueList {
  values?: KeyValue[];
}

export interface KeyValue {
  key: string;
  value?: AnyValue;
}

export interface Resource {
  attributes?: KeyValue[];
  droppedAttributesCount?: number;
}

export interface InstrumentationScope {
  name?: string;
  version?: string;
  attributes?: KeyValue[];
  droppedAttributesCount?: number;
}

/** `Span.SpanKind` (0 unspecified … 5 consumer). */
export type SpanKindCode = 0 | 1 | 2 | 3 | 4 | 5;

/** `Status.StatusCode`: 0 unset, 1 ok, 2 error. */
export type StatusCode = 0 | 1 | 2;

export interface Status {
  message?: string;
  code?: StatusCode;
}

export interface SpanEvent {
  timeUnixNano?: string | number;
  name?: string;
  attributes?: KeyValue[];
  droppedAttributesCount?: number;
}

export interface SpanLink {
  traceId?: string;
  spanId?: string;
  traceState?: string;
  attributes?: KeyValue[];
  droppedAttributesCount?: number;
  flags?: number;
}

export interface Span {
  traceId: string;
  spanId: string;
  traceState?: string;
  parentSpanId?: string;
  flags?: number;
  name: string;
  kind?: SpanKindCode;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  droppedAttributesCount?: number;
  events?: SpanEvent[];
  droppedEventsCount?: number;
  links?: SpanLink[];
  droppedLinksCount?: number;
  status?: Status;
}

export interface ScopeSpans {
  scope?: InstrumentationScope;
  spans?: Span[];
  schemaUrl?: string;
}

export interface ResourceSpans {
  resource?: Resource;
  scopeSpans?: ScopeSpans[];
  schemaUrl?: string;
}

export interface ExportTraceServiceRequest {
  resourceSpans?: ResourceSpans[];
}

/** `ExportTraceServiceResponse`: `partialSuccess` only when some spans were rejected. */
export interface ExportTraceServiceResponse {
  partialSuccess?: ExportTracePartialSuccess;
}

export interface ExportTracePartialSuccess {
  rejectedSpans?: string | number;
  errorMessage?: string;
}
