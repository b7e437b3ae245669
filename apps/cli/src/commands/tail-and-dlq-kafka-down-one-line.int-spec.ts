// `tail` and `dlq` with Redis up (the test's own redis-server) and Kafka unreachable (a closed port): the
// real process prints one line naming the brokers and the error, nothing on stdout, exits 1, and does so
// within seconds of asking (one quick metadata request, not the client's minute of logged retries).
import { OwnRedis } from '@wayfinder/testing';
import { closedPort, runCliProcess } from '../operator/cli-process.testing';

describe('tail and dlq with Kafka down', () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await OwnRedis.start();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it.each([['tail', 'deviations'], ['dlq', 'list', 'wayfinder.steps.v1'], ['dlq', 'replay', 'wayfinder.steps.v1']])('%s %s: one line, exit 1', async (...command) => {
    const kafka = `127.0.0.1:${await closedPort()}`;
    const run = await runCliProcess([...command, '--key', 'acme-secret-key', '--redis', redis.url, '--kafka', kafka], { WAYFINDER_API_KEYS: 'acme:acme-secret-key' }, 60_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^wayfinder ${command[0]}: Kafka at ${kafka.replace(/\./g, '\\.')} does not answer: .*ECONNREFUSED`));
  }, 90_000);
});
