// The progress line: drawn in place on a TTY (throttled, the last item always shown, cleared at the
// end), and not a single byte when stderr is a pipe; the same for a replay of a folder end to end.
import { join } from 'node:path';
import { captureIo } from './commands/cli-test-io';
import { runCli } from './main';
import { progressOn, type ProgressStream } from './progress';

function stream(isTTY: boolean): ProgressStream & { written: string[] } {
  const written: string[] = [];
  return { isTTY, columns: 60, written, write: (chunk: string) => (written.push(chunk), true) };
}

describe('progressOn', () => {
  it('draws on a TTY at most every 100 ms, always the last item, and clears the line when done', () => {
    const tty = stream(true);
    let t = 0;
    const progress = progressOn(tty, 'replaying', { total: 4, now: () => t });
    progress.tick(1, 'a.jsonl');
    t = 50;
    progress.tick(1, 'b.jsonl'); // throttled
    t = 150;
    progress.tick(1, 'c.jsonl');
    t = 160;
    progress.tick(1, 'd.jsonl'); // the last one: drawn although throttled
    progress.done();
    expect(tty.written).toEqual([
      '\r\x1b[2Kreplaying 1/4 (25%) a.jsonl',
      '\r\x1b[2Kreplaying 3/4 (75%) c.jsonl',
      '\r\x1b[2Kreplaying 4/4 (100%) d.jsonl',
      '\r\x1b[2K',
    ]);
  });

  it('counts without a total and cuts long lines to the terminal width', () => {
    const tty = stream(true);
    const progress = progressOn(tty, 'reading', { now: () => 0 });
    progress.tick(3, 'x'.repeat(200));
    expect(tty.written[0].startsWith('\r\x1b[2Kreading 3 xxx')).toBe(true);
    expect(tty.written[0].endsWith('x…')).toBe(true);
    expect(tty.written[0].length).toBeLessThanOrEqual('\r\x1b[2K'.length + 59);
  });

  it('writes nothing at all when the stream is not a TTY (a pipe, a file)', () => {
    for (const isTTY of [false, undefined]) {
      const pipe = { ...stream(false), isTTY } as ProgressStream & { written: string[] };
      const progress = progressOn(pipe, 'replaying', { total: 2 });
      progress.tick();
      progress.tick();
      progress.done();
      expect(pipe.written).toEqual([]);
    }
  });
});

describe('wayfinder replay of a folder', () => {
  const folder = join(__dirname, 'commands', 'fixtures', 'replay');

  it('draws its progress on a TTY stderr and writes exactly the same stdout and no progress into a pipe', async () => {
    const tty = captureIo();
    Object.assign(tty.stderr, { isTTY: true, columns: 200 });
    expect(await runCli(['replay', folder], tty)).toBe(0);
    expect(tty.err()).toContain('\r\x1b[2Kwayfinder replay: files 2/2 (100%) ');
    expect(tty.err().endsWith('\r\x1b[2Kwayfinder replay: skipped 2 invalid line(s); replayed 59 event(s) from 2 file(s)\n')).toBe(true);

    const pipe = captureIo();
    expect(await runCli(['replay', folder], pipe)).toBe(0);
    expect(pipe.err().includes('\r') || pipe.err().includes('\x1b')).toBe(false);
    expect(pipe.out()).toBe(tty.out());
  });
});
