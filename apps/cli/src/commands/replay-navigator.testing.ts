/** Runs `wayfinder replay` on one file of fixtures/replay-navigator and parses its JSON lines. Test-only. */
import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

/** One printed line: a Deviation, Correction or Escalation, read loosely (the specs check the fields they need). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from stdout
export type ReplayObject = Record<string, any>;

export async function replayFixture(file: string, corrections = false): Promise<ReplayObject[]> {
  const io = captureIo();
  const args = ['replay', path.join(__dirname, 'fixtures', 'replay-navigator', file), ...(corrections ? ['--corrections'] : [])];
  const code = await runCli(args, io);
  if (code !== 0) throw new Error(`replay exited ${code}: ${io.err()}`);
  const text = io.out().trimEnd();
  return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
}
