import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const FILE = path.join(__dirname, 'fixtures', 'replay-task', 'loop-after-milestone.jsonl');

describe('wayfinder replay with a TaskSpec line in the input', () => {
  it('localizes the task on its map, so a rollback goes back to the verified milestone', async () => {
    const io = captureIo();
    expect(await runCli(['replay', FILE, '--corrections'], io)).toBe(0);
    const out = io.out().trimEnd().split('\n').map((line) => JSON.parse(line));
    const rollback = out.find((o) => o.schema === 'wayfinder.correction.v1' && o.action === 'rollback');
    expect(rollback?.rollback).toEqual({ checkpointId: 'cp:task-1:collect:0', milestoneId: 'collect', discardAfterSeq: 0 });
  });

  it('reports a task whose map cannot be built as FILE:LINE with the reason, and goes on', async () => {
    const io = captureIo();
    expect(await runCli(['replay', FILE], io)).toBe(0);
    expect(io.err()).toContain(`${FILE}:2: task task-2: `);
    expect(io.err()).toMatch(/cycle/);
    expect(io.out().length).toBeGreaterThan(0);
  });
});
