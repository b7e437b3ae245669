import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const ARGS = ['eval', 'ab', '--agents', '30', '--seed', '4', '--rounds', '80'];

describe('wayfinder eval ab with a fixed seed', () => {
  it('prints the same JSON object twice, with the three arms, their metrics and the differences against none', async () => {
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'wf-ab-')), 'ab.html');
    const first = captureIo();
    expect(await runCli([...ARGS, '--report', report], first)).toBe(0);
    const second = captureIo();
    expect(await runCli(ARGS, second)).toBe(0);
    expect(second.out()).toBe(first.out());

    const out = JSON.parse(first.out());
    expect(Object.keys(out.arms)).toEqual(['none', 'navigation', 'sham']);
    for (const arm of Object.values(out.arms) as Array<Record<string, unknown>>) {
      expect(Object.keys(arm)).toEqual(expect.arrayContaining(['tasksCompleted', 'anchorRecall', 'consistency', 'stepsPerCompletedTask', 'tokens', 'selfHealRate', 'selfHealByRung', 'escalations']));
    }
    expect(out.arms.none).toMatchObject({ correctionsDelivered: 0, escalations: 0, selfHealRate: null });
    expect(out.arms.navigation.correctionsDelivered).toBeGreaterThan(0);
    for (const arm of ['navigation', 'sham']) {
      const d = out.differences[arm].tasksCompleted;
      expect(d.estimate).toBe(out.arms[arm].tasksCompleted - out.arms.none.tasksCompleted);
      expect(d.ci95[0]).toBeLessThanOrEqual(d.estimate);
      expect(d.ci95[1]).toBeGreaterThanOrEqual(d.estimate);
    }
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<h2>Arms side by side</h2>');
    expect((html.match(/<svg /g) ?? []).length).toBe(9);
    expect(html).not.toMatch(/<script|<link|src=/);
  });

  it('rejects an unknown arm with exit code 2', async () => {
    const io = captureIo();
    expect(await runCli(['eval', 'ab', '--arms', 'none,placebo'], io)).toBe(2);
    expect(io.err()).toMatch(/unknown arm 'placebo'/);
  });
});
