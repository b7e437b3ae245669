/** `wayfinder demo` through runCli: a short seeded run exits 0, writes the HTML report, and repeats itself exactly. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from '../commands/cli-test-io';

const dir = mkdtempSync(path.join(tmpdir(), 'wayfinder-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function demo(name: string, extra: string[] = []) {
  const report = path.join(dir, `${name}.html`);
  const io = captureIo();
  const code = await runCli(['demo', '--agents', '30', '--duration', '2', '--seed', '7', '--report', report, ...extra], io);
  const html = readFileSync(report, 'utf8');
  const summary = JSON.parse(/<script type="application\/json" id="summary-data">(.*?)<\/script>/s.exec(html)![1]);
  return { code, io, html, summary };
}

/** The closing summary lines (the live lines before them carry wall-clock rates). */
function summaryLines(out: string): string[] {
  return out.split('\n').filter((l) => /^(fleet|failures|healthy|navigation|tenant) /.test(l));
}

describe('wayfinder demo', () => {
  it('exits 0 and writes a self-contained HTML report with the summary, tenants, corrections and timelines', async () => {
    const { code, io, html, summary } = await demo('first');
    expect(code).toBe(0);
    expect(io.err()).toBe('');
    for (const id of ['summary', 'tenants', 'corrections', 'persistence', 'timelines']) expect(html).toContain(`<section id="${id}">`);
    // The persistence curve of an agent that looped and recovered: its deviations and the correction that healed it marked.
    const curve = /<figure class="curve"[^>]*>(<svg[\s\S]*?<\/svg>)<figcaption>([^<]*recovered after a (?:hint|rollback|replan)[^<]*)<\/figcaption>/.exec(html);
    expect(curve).not.toBeNull();
    expect(curve![1]).toMatch(/<circle[^>]*fill="#c53030"><title>[a-z_, ]+ at step \d+<\/title>/);
    expect(curve![1]).toMatch(/<title>(?:hint|rollback|replan)[a-z, ]* at step \d+<\/title>/);
    expect(html).toContain('<h2>Fleet summary</h2>');
    expect(html).toContain('class="loop-start"');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
    expect(summary).toMatchObject({ seed: 7, agents: 30, tenants: 3, healthyCorrected: 0 });
    expect(summary.detected).toBeGreaterThan(0);
    expect(summary.corrections).toBeGreaterThan(0);
    expect(summaryLines(io.out())).toHaveLength(4 + 3);
    // Not a TTY: plain progress lines, no cursor movement.
    expect(io.out()).toMatch(/^\[\d+\.\d+s\] round \d+\/\d+ \| working/m);
    expect(io.out()).not.toContain('\x1b[');
  });

  it('gives the same summary for the same seed', async () => {
    const a = await demo('a');
    const b = await demo('b');
    expect(b.summary).toEqual(a.summary);
    expect(summaryLines(b.io.out())).toEqual(summaryLines(a.io.out()));
  });

  it('writes the run metrics as JSON with --metrics-file', async () => {
    const metricsFile = path.join(dir, 'metrics.json');
    const { code } = await demo('metrics', ['--metrics-file', metricsFile]);
    expect(code).toBe(0);
    const metrics = JSON.parse(readFileSync(metricsFile, 'utf8'));
    const names: string[] = metrics.metrics.map((m: { name: string }) => m.name);
    expect(names.some((n) => n.startsWith('wayfinder.'))).toBe(true);
  });

  it.each([
    [['--agents', '0'], /--agents must be an integer ≥ 1, got '0'/],
    [['--duration', 'soon'], /--duration must be an integer ≥ 1, got 'soon'/],
    [['--seed=-3'], /--seed must be an integer ≥ 0, got '-3'/],
    [['extra'], /unexpected argument 'extra'/i],
    [['--report'], /--report/],
  ])('rejects %j with a one-line reason and exit code 2', async (args, reason) => {
    const io = captureIo();
    expect(await runCli(['demo', ...args], io)).toBe(2);
    expect(io.err()).toMatch(reason);
    expect(io.err().trimEnd().split('\n')).toHaveLength(1);
  });
});
