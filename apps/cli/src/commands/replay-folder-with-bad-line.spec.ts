import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const FIXTURES = path.join(__dirname, 'fixtures', 'replay');
const LOOP_FILE = path.join(FIXTURES, 'a-loop.jsonl');

describe('wayfinder replay on a folder with a bad line', () => {
  it('reports each bad line as FILE:LINE on stderr, goes on, and prints deviations as schema-tagged JSON lines', async () => {
    const io = captureIo();
    const code = await runCli(['replay', FIXTURES], io);

    expect(code).toBe(0);
    const errLines = io.err().trimEnd().split('\n');
    expect(errLines[0]).toMatch(new RegExp(`^wayfinder replay: ${escape(LOOP_FILE)}:15: seq: `));
    expect(errLines[1]).toMatch(new RegExp(`^wayfinder replay: ${escape(LOOP_FILE)}:17: invalid JSON`));
    expect(errLines[2]).toBe('wayfinder replay: skipped 2 invalid line(s); replayed 59 event(s) from 2 file(s)');

    const out = io.out().trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(out.length).toBeGreaterThan(0);
    for (const object of out) expect(object.schema).toBe('wayfinder.deviation.v1');
    // The loop continues past the bad lines: its critical comes from calls after line 17.
    const repeats = out.filter((d) => d.agentId === 'loop-agent' && d.detector === 'generic_repeat');
    expect(repeats.map((d) => d.level)).toContain('critical');
    expect(Math.max(...repeats.map((d) => d.atSeq))).toBeGreaterThan(14);
    // Event order: atSeq never goes backwards within an agent.
    const seqs = out.filter((d) => d.agentId === 'loop-agent').map((d) => d.atSeq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('adds corrections with --corrections, each with its schema', async () => {
    const io = captureIo();
    expect(await runCli(['replay', LOOP_FILE, '--corrections'], io)).toBe(0);
    const schemas = new Set(io.out().trimEnd().split('\n').map((line) => JSON.parse(line).schema));
    expect(schemas).toContain('wayfinder.deviation.v1');
    expect(schemas).toContain('wayfinder.correction.v1');
  });

  it('prints a table with a header and one row per deviation with --format table', async () => {
    const jsonl = captureIo();
    await runCli(['replay', LOOP_FILE], jsonl);
    const table = captureIo();
    expect(await runCli(['replay', LOOP_FILE, '--format', 'table'], table)).toBe(0);
    const rows = table.out().trimEnd().split('\n');
    expect(rows[0]).toMatch(/^SEQ\s+AGENT\s+RUN\s+KIND\s+WHAT/);
    expect(rows).toHaveLength(jsonl.out().trimEnd().split('\n').length + 1);
    expect(rows[1]).toContain('loop-agent');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
