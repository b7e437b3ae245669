/** A request with malformed spans: each bad span is rejected alone with its path and reason; a body that is no request is an error. */
import { readTraceRequest } from './otlp-request';
import { exportRequest } from './testing/otlp-fixture';

describe('reading a request with malformed spans', () => {
  const request = exportRequest({ 'service.name': 's' }, [
    { id: 'ok1', name: 'execute_tool a', start: 0, end: 1 },
    { id: 'bad-id', name: 'x', start: 0, end: 1 },
    { id: 'bad-time', name: 'y', start: 5, end: 1 },
    { id: 'ok2', name: 'execute_tool b', start: 0, end: 1 },
  ]);
  const spans = request.resourceSpans![0].scopeSpans![0].spans!;
  spans[1].spanId = 'zz';
  spans.push({ ...spans[0], spanId: 'aaaaaaaaaaaaaaaa', traceId: '0'.repeat(32) });
  spans.push({ ...spans[0], spanId: 'bbbbbbbbbbbbbbbb', startTimeUnixNano: 'soon' });
  (spans as unknown[]).push('not a span');

  it('keeps the good spans and names each rejected one', () => {
    const read = readTraceRequest(JSON.parse(JSON.stringify(request)));
    if (!read.ok) throw new Error(read.error);
    expect(read.spans.map((s) => s.name)).toEqual(['execute_tool a', 'execute_tool b']);
    expect(read.rejected.map((r) => `${r.field}: ${r.reason}`)).toEqual([
      'resourceSpans[0].scopeSpans[0].spans[1].spanId: must be 16 hex digits, not all zero',
      'resourceSpans[0].scopeSpans[0].spans[2].endTimeUnixNano: must not be before startTimeUnixNano',
      'resourceSpans[0].scopeSpans[0].spans[4].traceId: must be 32 hex digits, not all zero',
      'resourceSpans[0].scopeSpans[0].spans[5].startTimeUnixNano: must be a non-negative integer of nanoseconds',
      'resourceSpans[0].scopeSpans[0].spans[6]: a span must be an object',
    ]);
    expect(read.rejected[1].spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reads intValue given as a string or a number, kvlist and array values, and keeps integers past 2^53 as text', () => {
    const raw = JSON.parse(JSON.stringify(request));
    raw.resourceSpans[0].scopeSpans[0].spans = [{
      ...raw.resourceSpans[0].scopeSpans[0].spans[0],
      attributes: [
        { key: 'a', value: { intValue: '42' } },
        { key: 'b', value: { intValue: 7 } },
        { key: 'c', value: { intValue: '9007199254740993' } },
        { key: 'd', value: { kvlistValue: { values: [{ key: 'x', value: { arrayValue: { values: [{ boolValue: true }, { doubleValue: 1.5 }] } } }] } } },
        { key: 'e', value: {} },
      ],
    }];
    const read = readTraceRequest(raw);
    if (!read.ok) throw new Error(read.error);
    expect(read.spans[0].attributes).toEqual({ a: 42, b: 7, c: '9007199254740993', d: { x: [true, 1.5] }, e: null });
  });

  it('rejects a body that is not a request with the field', () => {
    expect(readTraceRequest([1, 2])).toEqual({ ok: false, error: 'the body must be a JSON object (an ExportTraceServiceRequest)' });
    expect(readTraceRequest({ resourceSpans: {} })).toEqual({ ok: false, error: 'resourceSpans must be an array', field: 'resourceSpans' });
    expect(readTraceRequest({ resourceSpans: [{ scopeSpans: [{ spans: 3 }] }] })).toEqual({ ok: false, error: 'must be an array', field: 'resourceSpans[0].scopeSpans[0].spans' });
    expect(readTraceRequest({})).toEqual({ ok: true, spans: [], rejected: [] });
  });
});
