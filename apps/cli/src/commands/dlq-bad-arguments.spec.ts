// `wayfinder dlq`: --since as an ISO time or a duration back from now, and one-line reasons (exit 2) for
// bad arguments, before any broker is asked.
import { runCli } from '../main';
import { captureIo } from './cli-test-io';
import { sinceOption } from './dlq.command';

describe('wayfinder dlq arguments', () => {
  it('reads --since as a duration back from now or an ISO time', () => {
    const now = Date.parse('2026-12-01T12:00:00.000Z');
    expect(sinceOption('90s', now)).toBe(now - 90_000);
    expect(sinceOption('30m', now)).toBe(now - 30 * 60_000);
    expect(sinceOption('2h', now)).toBe(now - 2 * 3_600_000);
    expect(sinceOption('7d', now)).toBe(now - 7 * 86_400_000);
    expect(sinceOption('2026-11-30T08:00:00Z', now)).toBe(Date.parse('2026-11-30T08:00:00Z'));
    expect(sinceOption(undefined, now)).toBeUndefined();
  });

  it.each([
    [['dlq'], /^wayfinder dlq: expected 'dlq list TOPIC' or 'dlq replay TOPIC', got '\(nothing\)'/],
    [['dlq', 'purge', 'wayfinder.steps.v1'], /^wayfinder dlq: expected 'dlq list TOPIC' or 'dlq replay TOPIC', got 'purge wayfinder.steps.v1'/],
    [['dlq', 'list'], /^wayfinder dlq: a TOPIC is required/],
    [['dlq', 'list', 'steps'], /^wayfinder dlq: unknown topic 'steps' \(one of wayfinder\./],
    [['dlq', 'list', 'wayfinder.steps.v1', '--since', 'yesterday'], /^wayfinder dlq: --since must be an ISO time .* or a duration .*, got 'yesterday'/],
    [['dlq', 'list', 'wayfinder.steps.v1', '--limit', '0'], /^wayfinder dlq: --limit must be an integer ≥ 1, got '0'/],
    [['dlq', 'list', 'wayfinder.steps.v1', '--format', 'xml'], /^wayfinder dlq: --format must be table or jsonl, got 'xml'/],
    [['dlq', 'replay', 'wayfinder.steps.v1', '--limit', '5'], /^wayfinder dlq: --limit and --format apply to list only/],
    [['dlq', 'list', 'wayfinder.steps.v1.dlq', 'extra'], /^wayfinder dlq: unexpected argument 'extra'/],
    [['dlq', 'list', 'wayfinder.steps.v1', '--key', ''], /^wayfinder dlq: --key \(or WAYFINDER_KEY\) is required: the key decides the tenant/],
  ])('%j exits 2 with a one-line reason', async (argv, reason) => {
    const saved = process.env['WAYFINDER_KEY'];
    delete process.env['WAYFINDER_KEY'];
    try {
      const io = captureIo();
      expect(await runCli(argv, io)).toBe(2);
      expect(io.out()).toBe('');
      expect(io.err().trimEnd().split('\n')).toHaveLength(1);
      expect(io.err()).toMatch(reason);
    } finally {
      if (saved !== undefined) process.env['WAYFINDER_KEY'] = saved;
    }
  });
});
