/**
 * Builds OTLP/JSON export requests for the ingest specs from a compact description: span names and
 * short ids instead of hex, times in ms after a fixed base, attributes as plain values (encoded as the
 * AnyValue variants an SDK writes: strings, integers as decimal strings, doubles, booleans, arrays,
 * kvlists). The fixtures written with it follow each convention's documented attribute names.
 */
import { parsePayload, type StepEvent } from '@wayfinder/contracts';
import type { AnyValue, ExportTraceServiceRequest, KeyValue } from '../otlp-model';
import { readTraceRequest } from '../otlp-request';
import { OtlpNormalizer, type NormalizerOptions } from '../normalizer';
import { fnv1a64Hex } from '../unrecorded';

export const BASE_MS = Date.parse('2026-12-01T10:00:00.000Z');

export interface SpanSpec {
  trace?: string;
  id: string;
  parent?: string;
  name: string;
  /** ms after BASE_MS */
  start: number;
  end: number;
  attrs?: Record<string, unknown>;
  events?: { name: string; time: number; attrs?: Record<string, unknown> }[];
  status?: { code: 0 | 1 | 2; message?: string };
}

export function traceHex(name: string): string {
  return (fnv1a64Hex(`trace:${name}`) + fnv1a64Hex(`trace2:${name}`)).slice(0, 32);
}

export function spanHex(name: string): string {
  return fnv1a64Hex(`span:${name}`);
}

export function anyValue(value: unknown): AnyValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  if (value !== null && typeof value === 'object') return { kvlistValue: { values: keyValues(value as Record<string, unknown>) } };
  return { stringValue: String(value) };
}

export function keyValues(attrs: Record<string, unknown> = {}): KeyValue[] {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) }));
}

function nanos(ms: number): string {
  return (BigInt(BASE_MS + Math.floor(ms)) * 1_000_000n + BigInt(Math.round((ms % 1) * 1e6))).toString();
}

export function exportRequest(resource: Record<string, unknown>, spans: SpanSpec[], scope = 'fixture'): ExportTraceServiceRequest {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues(resource) },
        scopeSpans: [
          {
            scope: { name: scope },
            spans: spans.map((s) => ({
              traceId: traceHex(s.trace ?? 't1'),
              spanId: spanHex(s.id),
              ...(s.parent ? { parentSpanId: spanHex(s.parent) } : {}),
              name: s.name,
              kind: 1,
              startTimeUnixNano: nanos(s.start),
              endTimeUnixNano: nanos(s.end),
              attributes: keyValues(s.attrs),
              events: (s.events ?? []).map((e) => ({ name: e.name, timeUnixNano: nanos(e.time), attributes: keyValues(e.attrs) })),
              status: s.status ?? { code: 0 },
            })),
          },
        ],
      },
    ],
  };
}

export class FakeClock {
  constructor(public ms = BASE_MS) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Every request through one normalizer, flushed at the end; each step checked against the contract. */
export function stepsOf(requests: ExportTraceServiceRequest[], options: Partial<NormalizerOptions> = {}, tenantId = 'acme'): StepEvent[] {
  const normalizer = new OtlpNormalizer(new FakeClock(), options);
  const out: StepEvent[] = [];
  for (const request of requests) out.push(...normalizer.ingest(tenantId, spansOf(request)));
  out.push(...normalizer.flushAll());
  return out.map(valid);
}

export function spansOf(request: ExportTraceServiceRequest) {
  const read = readTraceRequest(JSON.parse(JSON.stringify(request)));
  if (!read.ok) throw new Error(`fixture is not a valid request: ${read.error}`);
  if (read.rejected.length > 0) throw new Error(`fixture has rejected spans: ${JSON.stringify(read.rejected)}`);
  return read.spans;
}

export function valid(step: StepEvent): StepEvent {
  const parsed = parsePayload('wayfinder.steps.v1', step);
  if (!parsed.ok) throw new Error(`step ${step.eventId} breaks the contract: ${parsed.error}`);
  return step;
}

/** A compact view of steps for expectations: kind, tool, args/content/text. */
export function summary(steps: StepEvent[]): string[] {
  return steps.map((s) => {
    switch (s.kind) {
      case 'action':
        return `action ${s.action.tool} ${JSON.stringify(s.action.args)}${s.action.callId ? ` #${s.action.callId}` : ''}`;
      case 'observation':
        return `observation ${s.observation.tool} ${s.observation.ok ? 'ok' : `error ${s.observation.error}`} ${JSON.stringify(s.observation.content)}${s.observation.callId ? ` #${s.observation.callId}` : ''}`;
      case 'message':
        return `message ${s.message.role} ${JSON.stringify(s.message.text)}`;
      default:
        return s.kind;
    }
  });
}
