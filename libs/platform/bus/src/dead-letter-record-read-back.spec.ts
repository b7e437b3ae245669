// A DLQ record read back: source, attempts, error and time from the DLQ headers (the bus's and the
// services' own dead letters alike), the tenant and event id from the payload, no tenant for bytes that
// are not JSON; a replay carries the record's own headers and where it was dead-lettered, not the DLQ ones.
import { DLQ_HEADERS } from '@wayfinder/contracts';
import { deadLetterOf, replayHeaders, sourceOfDlq, REPLAYED_FROM_HEADER } from './dead-letters';

const headers = {
  traceparent: '00-abc-def-01',
  [DLQ_HEADERS.sourceTopic]: 'run7.wayfinder.escalations.v1',
  [DLQ_HEADERS.sourcePartition]: '1',
  [DLQ_HEADERS.sourceOffset]: '42',
  [DLQ_HEADERS.error]: 'handler failed: webhook answered 404',
  [DLQ_HEADERS.timestamp]: '2026-12-01T12:00:00.000Z',
  [DLQ_HEADERS.attempts]: '6',
};

describe('deadLetterOf', () => {
  it('reads where it came from, why, how often and whose it is', () => {
    const record = deadLetterOf({ partition: 0, offset: '7', key: Buffer.from('acme:bot'), value: Buffer.from(JSON.stringify({ tenantId: 'acme', eventId: 'esc-1' })), headers, timestamp: '1764590400000' }, 'wayfinder.escalations.v1', 'run7.');
    expect(record).toMatchObject({
      partition: 0, offset: '7', key: 'acme:bot', sourceTopic: 'wayfinder.escalations.v1', sourcePartition: 1, sourceOffset: '42',
      error: 'handler failed: webhook answered 404', attempts: 6, at: '2026-12-01T12:00:00.000Z', tenantId: 'acme', eventId: 'esc-1',
    });
    expect(record.headers).toEqual({ traceparent: '00-abc-def-01' });
    expect(replayHeaders(record, 'run7.wayfinder.escalations.v1.dlq')).toEqual({ traceparent: '00-abc-def-01', [REPLAYED_FROM_HEADER]: 'run7.wayfinder.escalations.v1.dlq/0/7' });
  });

  it('belongs to no tenant when the bytes are not JSON, and falls back to the broker time', () => {
    const record = deadLetterOf({ partition: 0, offset: '8', key: null, value: Buffer.from('{not json'), headers: {}, timestamp: '1764590400000' }, 'wayfinder.steps.v1');
    expect(record).toMatchObject({ tenantId: null, eventId: null, sourceTopic: 'wayfinder.steps.v1', sourcePartition: null, attempts: null, error: '(no reason recorded)', at: new Date(1764590400000).toISOString() });
  });

  it('knows a DLQ name from another', () => {
    expect(sourceOfDlq('wayfinder.steps.v1.dlq')).toBe('wayfinder.steps.v1');
    expect(sourceOfDlq('wayfinder.steps.v1')).toBeUndefined();
  });
});
