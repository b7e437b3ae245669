import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const DIR = path.join(__dirname, 'fixtures', 'persistence');

describe('wayfinder eval persistence on two small runs', () => {
  it('scores a looping run on its task line and a clean run on its user message, one JSON object each and a summary', async () => {
    const curves = mkdtempSync(path.join(tmpdir(), 'wf-curves-'));
    const io = captureIo();
    expect(await runCli(['eval', 'persistence', DIR, '--curve', curves], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    const [loop, clean, { summary }] = lines;
    expect(loop).toMatchObject({ agentId: 'agent-1', goalSource: 'task-line', anchorRecall: 1, deviationEpisodes: 1, returned: 1, finalOutputSeq: 34 });
    // 28 looping steps out of 36 serve nothing: the loop is what the consistency shows.
    expect(loop.trajectoryConsistency).toBeLessThan(0.3);
    expect(loop.deviations).toBeGreaterThan(0);
    expect(loop.corrections).toBeGreaterThan(0);
    expect(loop.resourceEfficiency.tokens).toBeLessThan(0.3);
    expect(clean).toMatchObject({ agentId: 'agent-2', goalSource: 'first-user-message', anchorRecall: 1, trajectoryConsistency: 1, deviations: 0 });
    expect(summary).toMatchObject({ runs: 2, runsWithAnchors: 2, anchorRecall: 1, invalidLines: 0 });
    expect(readdirSync(curves).sort()).toEqual(['agent-1.svg', 'agent-2.svg']);
    expect(readFileSync(path.join(curves, 'agent-1.svg'), 'utf8')).toMatch(/^<svg[\s\S]*<circle[\s\S]*<\/svg>$/);
  });

  it('scores every run on the --goal given instead, and prints a table with --format table', async () => {
    const io = captureIo();
    expect(await runCli(['eval', 'persistence', path.join(DIR, 'user-goal.jsonl'), '--goal', 'Find at least 5 competitors of Acme CRM', '--format', 'table'], io)).toBe(0);
    const [head, row, summary] = io.out().trimEnd().split('\n');
    expect(head).toMatch(/^agent\s+source\s+steps\s+anchors\s+recall/);
    expect(row).toMatch(/^agent-2\s+goal-option\s+4\s+1\s+0\.00/);
    expect(summary).toMatch(/^summary: 1 runs/);
  });

  it('reports a task line that cannot become a map as FILE:LINE and scores the run on its messages instead', async () => {
    const file = path.join(__dirname, 'fixtures', 'persistence-bad-task', 'cyclic-task-line.jsonl');
    const io = captureIo();
    expect(await runCli(['eval', 'persistence', file], io)).toBe(0);
    expect(io.err()).toContain(`${file}:1: task loopy: `);
    const [run, { summary }] = io.out().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(run).toMatchObject({ agentId: 'agent-3', goalSource: 'first-user-message', anchorRecall: 1 });
    expect(summary.invalidLines).toBe(1);
  });

  it.each([
    [['eval', 'persistence'], /at least one PATH/],
    [['eval', 'persistence', DIR, '--task', 'x.json', '--goal', 'y'], /--task or --goal, not both/],
    [['eval', 'persistence', DIR, '--format', 'xml'], /--format must be json or table/],
    [['eval', 'persistence', DIR, '--task', path.join(DIR, 'missing.json')], /--task .*missing\.json: not found/],
  ])('rejects %j with exit code 2 and a one-line reason', async (argv, reason) => {
    const io = captureIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err()).toMatch(reason);
    expect(io.err().trimEnd().split('\n')).toHaveLength(1);
  });
});
