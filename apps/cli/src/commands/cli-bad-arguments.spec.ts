import { runCli } from '../main';
import { captureIo } from './cli-test-io';

describe('bad arguments to my commands', () => {
  it.each([
    [['replay', '--bogus', 'x.jsonl'], /^wayfinder replay: Unknown option '--bogus'/],
    [['replay'], /^wayfinder replay: at least one PATH/],
    [['replay', 'x.jsonl', '--format', 'xml'], /^wayfinder replay: --format must be jsonl or table, got 'xml'/],
    [['replay', 'x.jsonl', '--profile', 'paranoid'], /^wayfinder replay: --profile must be one of balanced, strict, lenient, openclaw; got 'paranoid'/],
    [['replay', '/nonexistent/trace.jsonl'], /^wayfinder replay: no such file or folder: \/nonexistent\/trace\.jsonl/],
    [['eval'], /^wayfinder eval: a sub-command is required/],
    [['eval', 'tail', 'dir'], /^wayfinder eval: unknown sub-command 'tail'/],
    [['eval', 'trail'], /^wayfinder eval: trail needs a DIR/],
    [['eval', 'trail', '/nonexistent'], /^wayfinder eval: .*labels\.json not found/],
    [['bench', 'detectors', '--agents', '0'], /^wayfinder bench: --agents must be an integer ≥ 1, got '0'/],
    [['bench', 'everything'], /^wayfinder bench: unknown benchmark 'everything'/],
    [['bench', 'detectors', '--rate', '5'], /^wayfinder bench: --rate does not apply to 'bench detectors'/],
    [['bench', 'pipeline', '--looping-share', '2'], /^wayfinder bench: --looping-share must be a number between 0 and 1, got '2'/],
    [['start', '--fleet', '--simulate', '5'], /^wayfinder start: --simulate N runs a fixed fleet, --fleet one that keeps arriving: use one of them/],
    [['start', '--fleet', '--mode', 'distributed'], /^wayfinder start: --simulate and --fleet run the embedded pipeline/],
    [['start', '--fleet', '--port', 'x'], /^wayfinder start: --port \(or WAYFINDER_GATEWAY_PORT\) must be a port number, got 'x'/],
  ])('%j exits 2 with a one-line reason', async (argv, reason) => {
    const io = captureIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.out()).toBe('');
    const lines = io.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(reason);
  });

  it.each(['replay', 'eval', 'bench'])('%s --help prints its usage and exits 0', async (name) => {
    const io = captureIo();
    expect(await runCli([name, '--help'], io)).toBe(0);
    expect(io.out()).toMatch(new RegExp(`^usage: wayfinder ${name} `));
  });
});
