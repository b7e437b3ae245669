/**
 * Property test: TracedBus reads a delivered message's trace headers without the propagator's
 * `extract` (a Context per message was most of the cost of an unsampled one), so it must read exactly
 * what `extract` reads for any header a producer may send: valid, zero ids, other versions, extra
 * fields, whitespace, upper case, truncated or garbage, with or without a tracestate.
 */
import { defaultTextMapGetter, ROOT_CONTEXT, trace, type SpanContext } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import fc from 'fast-check';
import { remoteParentOf } from './traced.bus';

const propagator = new W3CTraceContextPropagator();

function extracted(headers: Record<string, string>): SpanContext | undefined {
  return trace.getSpanContext(propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter));
}

/** Span contexts compared by value (a TraceState by what it serializes to). */
function comparable(spanContext: SpanContext | undefined): unknown {
  return spanContext && { ...spanContext, traceState: spanContext.traceState?.serialize() };
}

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
const part = (length: number) => fc.oneof(hex(length), fc.constant('0'.repeat(length)), hex(length).map((h) => h.toUpperCase()), hex(length - 1));
const traceparent = fc.oneof(
  fc.tuple(fc.constantFrom('00', '01', 'ff', 'cc', '0'), part(32), part(16), fc.constantFrom('00', '01', '1', 'ff', 'zz')).map((parts) => parts.join('-')),
  fc.tuple(hex(32), hex(16), fc.constantFrom('', '-extra', '-', ' ', '\t'), fc.constantFrom('', ' ')).map(([t, s, tail, lead]) => `${lead}00-${t}-${s}-01${tail}`),
  fc.tuple(hex(32), hex(16)).map(([t, s]) => `01-${t}-${s}-01-future`),
  fc.string({ maxLength: 60 }),
);
const headers = fc.record(
  { traceparent, tracestate: fc.constantFrom('vendor=value', 'a=1,b=2', 'not a state', '') },
  { requiredKeys: ['traceparent'] },
);

describe('trace headers of a delivered message', () => {
  it('are read as the W3C propagator extracts them', () => {
    fc.assert(
      fc.property(headers, (h) => {
        expect(comparable(remoteParentOf(h))).toEqual(comparable(extracted(h)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('are read for the common header, and not for a missing one', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect(remoteParentOf({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` })).toEqual({ traceId, spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true });
    expect(remoteParentOf({})).toBeUndefined();
  });
});
