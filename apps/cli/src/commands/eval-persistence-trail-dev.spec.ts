import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

// ../shared/data beside the repository (the worktree's sibling); absent in a plain clone.
const DIR = path.resolve(__dirname, '../../../../../shared/data/trail-dev');
const present = existsSync(path.join(DIR, 'labels.json'));

describe('wayfinder eval persistence on ../shared/data/trail-dev', () => {
  if (!present) {
    it('SKIPPED: ../shared/data/trail-dev is not present beside the repository', () => {
      // Loud on purpose: this evaluation needs the shared data set and says so instead of passing silently.
      console.warn(`eval persistence on trail-dev SKIPPED: ${DIR} not found`);
      expect(present).toBe(false);
    });
    return;
  }

  it('prints per-trace scores for every trace and a summary', async () => {
    const io = captureIo();
    expect(await runCli(['eval', 'persistence', DIR], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n').map((l) => JSON.parse(l));
    const runs = lines.slice(0, -1);
    const { summary } = lines[lines.length - 1];
    expect(runs.length).toBe(53);
    expect(summary.runs).toBe(53);
    for (const run of runs) {
      // No trace carries its prompt: the goal is read from the trace's first message.
      expect(run.goalSource).toBe('first-message');
      expect(run.trajectoryConsistency).toBeGreaterThanOrEqual(0);
      expect(run.trajectoryConsistency).toBeLessThanOrEqual(1);
      expect(run.ruleCoverage).toBeGreaterThan(0);
    }
    expect(summary.deviations).toBeGreaterThan(0);
  });
});
