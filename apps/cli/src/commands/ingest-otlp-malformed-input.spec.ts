/** `wayfinder ingest otlp` on malformed files, lines and spans: one line per problem naming FILE:LINE, the rest still mapped. */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { otlpJsonBatches, recordAgentRun } from '@wayfinder/otlp/testing';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

describe('wayfinder ingest otlp on malformed input', () => {
  it('reports each bad line, span and file on stderr and maps the good ones', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wf-ingest-bad-'));
    try {
      const [good] = otlpJsonBatches(await recordAgentRun({ agentName: 'a', calls: [{ tool: 'ls', args: { d: '/' }, result: 'x' }] }));
      const badSpan = JSON.parse(good);
      badSpan.resourceSpans[0].scopeSpans[0].spans[0].spanId = 'nope';
      const lines = path.join(dir, 'mixed.jsonl');
      await fs.writeFile(lines, [good, '{"resourceSpans": [', JSON.stringify({ resourceSpans: 5 }), JSON.stringify(badSpan)].join('\n'));
      const garbage = path.join(dir, 'garbage.pb');
      await fs.writeFile(garbage, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]));
      const io = captureIo();
      expect(await runCli(['ingest', 'otlp', lines, garbage], io)).toBe(0);
      const err = io.err().trimEnd().split('\n');
      expect(err[0]).toMatch(new RegExp(`^wayfinder ingest: ${escape(lines)}:2: invalid JSON`));
      expect(err[1]).toBe(`wayfinder ingest: ${lines}:3: resourceSpans: resourceSpans must be an array`);
      expect(err[2]).toBe(`wayfinder ingest: ${lines}:4: span rejected, resourceSpans[0].scopeSpans[0].spans[0].spanId: must be 16 hex digits, not all zero`);
      expect(err[3]).toMatch(new RegExp(`^wayfinder ingest: ${escape(garbage)}:1: the body is not a protobuf ExportTraceServiceRequest`));
      expect(err[4]).toBe('wayfinder ingest: skipped 4 malformed request(s) or span(s); wrote 2 step(s) from 2 file(s)');
      const steps = io.out().trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(steps.map((s) => s.kind)).toEqual(['action', 'observation']);
      expect(steps[0].tenantId).toBe('local');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['ingest'], /^wayfinder ingest: a source is required/],
    [['ingest', 'zipkin', 'f'], /^wayfinder ingest: unknown source 'zipkin'/],
    [['ingest', 'otlp'], /^wayfinder ingest: otlp needs at least one FILE/],
    [['ingest', 'otlp', '/nonexistent/t.json'], /^wayfinder ingest: no such file: \/nonexistent\/t\.json/],
    [['ingest', 'otlp', 'f', '--tenant', ''], /^wayfinder ingest: --tenant must be 1 to 128 characters/],
    [['ingest', 'otlp', 'f', '--bogus'], /^wayfinder ingest: Unknown option '--bogus'/],
  ])('%j exits 2 with a one-line reason', async (argv, reason) => {
    const io = captureIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.out()).toBe('');
    const lines = io.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(reason);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
