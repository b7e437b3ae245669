import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const FIXTURES = path.join(__dirname, 'fixtures');
const LOOP_FILE = path.join(FIXTURES, 'replay', 'a-loop.jsonl');

describe('wayfinder replay --policy', () => {
  it('exits 2 with one line naming the bad field', async () => {
    const io = captureIo();
    const code = await runCli(['replay', LOOP_FILE, '--policy', path.join(FIXTURES, 'policy', 'bad-threshold.json')], io);
    expect(code).toBe(2);
    expect(io.out()).toBe('');
    const err = io.err();
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toMatch(/^wayfinder replay: .*bad-threshold\.json: .*loop\.warning/);
  });

  it('exits 2 naming a missing policy file', async () => {
    const io = captureIo();
    expect(await runCli(['replay', LOOP_FILE, '--policy', '/nonexistent/policy.json'], io)).toBe(2);
    expect(io.err()).toMatch(/^wayfinder replay: .*\/nonexistent\/policy\.json/);
  });

  it('applies a valid overlay: an earlier warning threshold fires earlier', async () => {
    const base = captureIo();
    await runCli(['replay', LOOP_FILE], base);
    const early = captureIo();
    expect(await runCli(['replay', LOOP_FILE, '--policy', path.join(FIXTURES, 'policy', 'strict-early.json')], early)).toBe(0);
    const firstRepeat = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((d) => d.detector === 'generic_repeat')?.atSeq as number;
    expect(firstRepeat(early.out())).toBeLessThan(firstRepeat(base.out()));
  });
});
