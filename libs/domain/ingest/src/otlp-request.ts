/**
 * Reads an `ExportTraceServiceRequest` (the typed model of otlp-model.ts, or any parsed JSON that claims to
 * be one) into SpanRecords. A body that is not a request at all is an error naming the field; a span that
 * is malformed (bad ids, bad times, no name) is rejected alone with its path and reason, so one bad span
 * never loses the others (OTLP partial success).
 */
import type { AnyValue, ExportTraceServiceRequest, KeyValue, ResourceSpans, ScopeSpans, Span } from './otlp-model';
import type { Attributes, AttrValue, RejectedSpan, SpanEventRecord, SpanRecord } from './span-record';

export type TraceRequestResult =
  | { ok: true; spans: SpanRecord[]; rejected: RejectedSpan[] }
  | { ok: false; error: string; field?: string };

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
const MAX_VALUE_DEPTH = 16;
/** Bounds what one request can make us hold: a request past them is rejected whole, with the reason. */
export const MAX_SPANS_PER_REQUEST = 100_000;

export function readTraceRequest(raw: unknown): TraceRequestResult {
  if (!isObject(raw)) return { ok: false, error: 'the body must be a JSON object (an ExportTraceServiceRequest)' };
  const request = raw as ExportTraceServiceRequest;
  if (request.resourceSpans === undefined || request.resourceSpans === null) return { ok: true, spans: [], rejected: [] };
  if (!Array.isArray(request.resourceSpans)) return { ok: false, error: 'resourceSpans must be an array', field: 'resourceSpans' };
  const spans: SpanRecord[] = [];
  const rejected: RejectedSpan[] = [];
  let count = 0;
  for (let r = 0; r < request.resourceSpans.length; r++) {
    const rs = request.resourceSpans[r] as unknown;
    const rPath = `resourceSpans[${r}]`;
    if (!isObject(rs)) return { ok: false, error: 'must be an object', field: rPath };
    const resourceSpans = rs as { resource?: unknown; scopeSpans?: unknown };
    const resourceAttrs = isObject(resourceSpans.resource) ? (resourceSpans.resource as { attributes?: unknown }).attributes : undefined;
    const resource = readAttributes(resourceAttrs);
    if (resourceSpans.scopeSpans === undefined || resourceSpans.scopeSpans === null) continue;
    if (!Array.isArray(resourceSpans.scopeSpans)) return { ok: false, error: 'must be an array', field: `${rPath}.scopeSpans` };
    for (let s = 0; s < resourceSpans.scopeSpans.length; s++) {
      const ss = resourceSpans.scopeSpans[s] as unknown;
      const sPath = `${rPath}.scopeSpans[${s}]`;
      if (!isObject(ss)) return { ok: false, error: 'must be an object', field: sPath };
      const scopeSpans = ss as { scope?: { name?: unknown }; spans?: unknown };
      const scope = isObject(scopeSpans.scope) && typeof scopeSpans.scope.name === 'string' ? scopeSpans.scope.name : undefined;
      if (scopeSpans.spans === undefined || scopeSpans.spans === null) continue;
      if (!Array.isArray(scopeSpans.spans)) return { ok: false, error: 'must be an array', field: `${sPath}.spans` };
      count += scopeSpans.spans.length;
      if (count > MAX_SPANS_PER_REQUEST) return { ok: false, error: `a request may hold at most ${MAX_SPANS_PER_REQUEST} spans`, field: `${sPath}.spans` };
      for (let i = 0; i < scopeSpans.spans.length; i++) {
        const outcome = readSpan(scopeSpans.spans[i], resource, scope);
        if (outcome.ok) spans.push(outcome.span);
        else rejected.push({ field: `${sPath}.spans[${i}]${outcome.field ? `.${outcome.field}` : ''}`, reason: outcome.reason, traceId: outcome.traceId, spanId: outcome.spanId });
      }
    }
  }
  return { ok: true, spans, rejected };
}

type SpanOutcome = { ok: true; span: SpanRecord } | { ok: false; field?: string; reason: string; traceId?: string; spanId?: string };

function readSpan(raw: unknown, resource: Attributes, scope: string | undefined): SpanOutcome {
  if (!isObject(raw)) return { ok: false, reason: 'a span must be an object' };
  const s = raw as Record<string, unknown>;
  const traceId = typeof s.traceId === 'string' ? s.traceId.toLowerCase() : undefined;
  const spanId = typeof s.spanId === 'string' ? s.spanId.toLowerCase() : undefined;
  const ids = { traceId, spanId };
  if (traceId === undefined || !TRACE_ID.test(traceId) || traceId === ZERO_TRACE) {
    return { ok: false, field: 'traceId', reason: 'must be 32 hex digits, not all zero', ...ids };
  }
  if (spanId === undefined || !SPAN_ID.test(spanId) || spanId === ZERO_SPAN) {
    return { ok: false, field: 'spanId', reason: 'must be 16 hex digits, not all zero', ...ids };
  }
  let parentSpanId: string | undefined;
  if (s.parentSpanId !== undefined && s.parentSpanId !== null && s.parentSpanId !== '') {
    const parent = typeof s.parentSpanId === 'string' ? s.parentSpanId.toLowerCase() : '';
    if (!SPAN_ID.test(parent)) return { ok: false, field: 'parentSpanId', reason: 'must be 16 hex digits or empty', ...ids };
    if (parent !== ZERO_SPAN) parentSpanId = parent;
  }
  if (typeof s.name !== 'string') return { ok: false, field: 'name', reason: 'must be a string', ...ids };
  const startUs = unixNanoToMicros(s.startTimeUnixNano);
  if (startUs === undefined) return { ok: false, field: 'startTimeUnixNano', reason: 'must be a non-negative integer of nanoseconds', ...ids };
  const endUs = unixNanoToMicros(s.endTimeUnixNano);
  if (endUs === undefined) return { ok: false, field: 'endTimeUnixNano', reason: 'must be a non-negative integer of nanoseconds', ...ids };
  if (endUs < startUs) return { ok: false, field: 'endTimeUnixNano', reason: 'must not be before startTimeUnixNano', ...ids };
  const status = isObject(s.status) ? (s.status as { code?: unknown; message?: unknown }) : {};
  const code = status.code === 2 || status.code === 'STATUS_CODE_ERROR' ? 2 : status.code === 1 || status.code === 'STATUS_CODE_OK' ? 1 : 0;
  const events: SpanEventRecord[] = [];
  if (Array.isArray(s.events)) {
    for (const e of s.events) {
      if (!isObject(e)) continue;
      const event = e as { name?: unknown; timeUnixNano?: unknown; attributes?: unknown };
      events.push({
        name: typeof event.name === 'string' ? event.name : '',
        timeUs: unixNanoToMicros(event.timeUnixNano) ?? startUs,
        attributes: readAttributes(event.attributes),
      });
    }
  }
  return {
    ok: true,
    span: {
      traceId,
      spanId,
      ...(parentSpanId ? { parentSpanId } : {}),
      name: s.name,
      startUs,
      endUs,
      attributes: readAttributes(s.attributes),
      resource,
      ...(scope !== undefined ? { scope } : {}),
      events,
      statusCode: code,
      ...(typeof status.message === 'string' && status.message.length > 0 ? { statusMessage: status.message } : {}),
    },
  };
}

/** Nanoseconds (a decimal string or a number) to whole microseconds; undefined when not a non-negative integer. */
export function unixNanoToMicros(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || !Number.isInteger(value)) return undefined;
    return Math.floor(value / 1000);
  }
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) return undefined;
  // Cut the last three digits in the string: no precision is lost in a double for microseconds.
  return value.length <= 3 ? 0 : Number(value.slice(0, -3));
}

export function readAttributes(raw: unknown): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(raw)) return out;
  for (const kv of raw as KeyValue[]) {
    if (!isObject(kv) || typeof kv.key !== 'string') continue;
    out[kv.key] = readAnyValue(kv.value, 0);
  }
  return out;
}

/** Unwraps an AnyValue; an empty or unknown variant is null, integers past 2^53 stay decimal strings. */
export function readAnyValue(raw: AnyValue | undefined | unknown, depth: number): AttrValue {
  if (!isObject(raw) || depth > MAX_VALUE_DEPTH) return null;
  const v = raw as Record<string, unknown>;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) {
    const n = typeof v.intValue === 'number' ? v.intValue : Number(v.intValue);
    if (Number.isSafeInteger(n)) return n;
    return typeof v.intValue === 'string' ? v.intValue : null;
  }
  if (v.doubleValue !== undefined && v.doubleValue !== null) {
    const n = typeof v.doubleValue === 'number' ? v.doubleValue : Number(v.doubleValue);
    return Number.isFinite(n) ? n : String(v.doubleValue);
  }
  if (isObject(v.arrayValue)) {
    const values = (v.arrayValue as { values?: unknown }).values;
    return Array.isArray(values) ? values.map((item) => readAnyValue(item, depth + 1)) : [];
  }
  if (isObject(v.kvlistValue)) {
    const values = (v.kvlistValue as { values?: unknown }).values;
    const out: Record<string, AttrValue> = {};
    if (Array.isArray(values)) {
      for (const kv of values) if (isObject(kv) && typeof kv.key === 'string') out[kv.key] = readAnyValue(kv.value, depth + 1);
    }
    return out;
  }
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The accepted spans of a request regrouped per trace, as requests of their own (resource and scope kept,
 * ids lowercased), at most `maxSpans` spans each: what the OTLP receiver publishes on `wayfinder.otlp.v1`,
 * one message per trace chunk. `rejected` (from readTraceRequest) names the spans to leave out.
 */
export function requestsByTrace(request: ExportTraceServiceRequest, rejected: readonly RejectedSpan[] = [], maxSpans = 512): { traceId: string; request: ExportTraceServiceRequest }[] {
  const skip = new Set(rejected.map((r) => /^resourceSpans\[\d+\]\.scopeSpans\[\d+\]\.spans\[\d+\]/.exec(r.field)?.[0]).filter((p): p is string => p !== undefined));
  type Chunk = { traceId: string; request: ExportTraceServiceRequest; count: number; r: number; s: number };
  const byTrace = new Map<string, Chunk[]>();
  (request.resourceSpans ?? []).forEach((rs, r) => {
    (rs.scopeSpans ?? []).forEach((ss, s) => {
      (ss.spans ?? []).forEach((span, i) => {
        if (skip.has(`resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`)) return;
        const traceId = span.traceId.toLowerCase();
        let chunks = byTrace.get(traceId);
        if (!chunks) byTrace.set(traceId, (chunks = []));
        let chunk = chunks[chunks.length - 1];
        if (!chunk || chunk.count >= maxSpans) chunks.push((chunk = { traceId, request: { resourceSpans: [] }, count: 0, r: -1, s: -1 }));
        const resources = chunk.request.resourceSpans as ResourceSpans[];
        if (chunk.r !== r) {
          resources.push({ ...(rs.resource ? { resource: rs.resource } : {}), scopeSpans: [], ...(rs.schemaUrl ? { schemaUrl: rs.schemaUrl } : {}) });
          chunk.r = r;
          chunk.s = -1;
        }
        const scopes = resources[resources.length - 1].scopeSpans as ScopeSpans[];
        if (chunk.s !== s) {
          scopes.push({ ...(ss.scope ? { scope: ss.scope } : {}), spans: [], ...(ss.schemaUrl ? { schemaUrl: ss.schemaUrl } : {}) });
          chunk.s = s;
        }
        (scopes[scopes.length - 1].spans as Span[]).push({ ...span, traceId, spanId: span.spanId.toLowerCase(), ...(span.parentSpanId ? { parentSpanId: span.parentSpanId.toLowerCase() } : {}) });
        chunk.count++;
      });
    });
  });
  return [...byTrace.values()].flat().map(({ traceId, request: req }) => ({ traceId, request: req }));
}
