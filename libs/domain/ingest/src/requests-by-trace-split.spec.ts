/** The receiver's split of one request into per-trace requests: rejected spans left out, large traces chunked, resource and scope kept. */
import { readTraceRequest, requestsByTrace } from './otlp-request';
import { exportRequest, traceHex } from './testing/otlp-fixture';

describe('splitting a request by trace', () => {
  it('groups spans by trace, leaves out the rejected ones and chunks at maxSpans', () => {
    const request = exportRequest({ 'service.name': 'svc' }, [
      { trace: 'x', id: 'x1', name: 'a', start: 0, end: 1 },
      { trace: 'y', id: 'y1', name: 'b', start: 0, end: 1 },
      { trace: 'x', id: 'x2', name: 'c', start: 0, end: 1 },
      { trace: 'x', id: 'x3', name: 'd', start: 0, end: 1 },
      { trace: 'x', id: 'bad', name: 'e', start: 3, end: 1 },
    ]);
    const read = readTraceRequest(request);
    if (!read.ok) throw new Error(read.error);
    expect(read.rejected).toHaveLength(1);
    const parts = requestsByTrace(request, read.rejected, 2);
    expect(parts.map((p) => p.traceId)).toEqual([traceHex('x'), traceHex('x'), traceHex('y')]);
    expect(parts.map((p) => p.request.resourceSpans![0].scopeSpans![0].spans!.map((s) => s.name))).toEqual([['a', 'c'], ['d'], ['b']]);
    for (const p of parts) {
      expect(p.request.resourceSpans![0].resource).toEqual(request.resourceSpans![0].resource);
      expect(p.request.resourceSpans![0].scopeSpans![0].scope).toEqual({ name: 'fixture' });
      const again = readTraceRequest(JSON.parse(JSON.stringify(p.request)));
      expect(again.ok && again.rejected).toEqual([]);
    }
  });
});
