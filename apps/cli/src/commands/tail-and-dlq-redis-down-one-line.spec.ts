// `tail` and `dlq` with Redis unreachable (a closed port): the real process prints one line naming Redis
// and its error on stderr, nothing on stdout, and exits 1 — no ioredis stack trace per reconnection, no
// waiting for a Redis that is not there.
import { closedPort, runCliProcess } from '../operator/cli-process.testing';

describe('tail and dlq with Redis down', () => {
  it.each([['tail', 'deviations'], ['dlq', 'list', 'wayfinder.steps.v1'], ['dlq', 'replay', 'wayfinder.steps.v1']])('%s %s: one line, exit 1', async (...command) => {
    const redis = `redis://127.0.0.1:${await closedPort()}`;
    const kafka = `127.0.0.1:${await closedPort()}`;
    const run = await runCliProcess([...command, '--key', 'some-key', '--redis', redis, '--kafka', kafka], { WAYFINDER_API_KEYS: '' }, 60_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toEqual([`wayfinder ${command[0]}: Redis at ${redis} does not answer: connect ECONNREFUSED ${redis.slice('redis://'.length)}`]);
  }, 90_000);
});
