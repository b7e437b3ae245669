/** OTLP/HTTP bodies: gzip of either encoding decodes the same; malformed bodies get a 4xx reason, never a throw. */
import { gzipSync } from 'node:zlib';
import { readTraceRequest } from '@wayfinder/ingest';
import { otlpJsonBatches, otlpProtobufBatches, recordAgentRun } from './testing/otel-agent-run';
import { decodeOtlpBody } from './otlp-body';

describe('OTLP/HTTP body decoding', () => {
  let json: Buffer;
  let proto: Uint8Array;
  beforeAll(async () => {
    const spans = await recordAgentRun({ agentName: 'g', calls: [{ tool: 'ls', args: { dir: '/' }, result: 'bin' }] });
    json = Buffer.from(otlpJsonBatches(spans)[0]);
    proto = otlpProtobufBatches(spans)[0];
  });

  it('decodes gzip-compressed protobuf and JSON to the same spans as the plain bodies', () => {
    const spansOf = (r: ReturnType<typeof decodeOtlpBody>) => {
      if (!r.ok) throw new Error(r.error);
      const read = readTraceRequest(r.request);
      if (!read.ok) throw new Error(read.error);
      return read.spans;
    };
    const plain = spansOf(decodeOtlpBody(proto, 'application/x-protobuf', undefined));
    expect(plain).toHaveLength(3);
    expect(spansOf(decodeOtlpBody(gzipSync(proto), 'application/x-protobuf', 'gzip'))).toEqual(plain);
    expect(spansOf(decodeOtlpBody(json, 'application/json; charset=utf-8', undefined))).toEqual(plain);
    expect(spansOf(decodeOtlpBody(gzipSync(json), 'application/json', 'GZIP'))).toEqual(plain);
  });

  it('answers malformed bodies with a status and a reason', () => {
    const cases: [Uint8Array, string | undefined, string | undefined, number, RegExp][] = [
      [proto.subarray(0, proto.length - 7), 'application/x-protobuf', undefined, 400, /not a protobuf ExportTraceServiceRequest/],
      [Buffer.from('{"resourceSpans": ['), 'application/json', undefined, 400, /not valid JSON/],
      [Buffer.from('not gzip at all'), 'application/json', 'gzip', 400, /not valid gzip/],
      [json, 'text/plain', undefined, 415, /Content-Type must be/],
      [json, 'application/json', 'br', 415, /Content-Encoding must be gzip/],
      [gzipSync(Buffer.alloc(2 * 1024 * 1024, 32)), 'application/json', 'gzip', 413, /larger than 1048576 bytes/],
    ];
    for (const [body, type, encoding, status, reason] of cases) {
      const result = decodeOtlpBody(body, type, encoding, 1024 * 1024);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.status).toBe(status);
      expect(result.error).toMatch(reason);
    }
  });
});
