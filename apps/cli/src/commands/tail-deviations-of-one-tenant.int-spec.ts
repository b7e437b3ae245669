/**
 * `wayfinder tail deviations --tenant acme` on the real broker, with WAYFINDER_TOPIC_PREFIX (the topics
 * made by `topics create` under the same prefix): prints acme's new deviations as JSON lines and none of
 * another tenant's with the same agent id.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Deviation } from '@wayfinder/contracts';
import { KafkaBus } from '@wayfinder/bus';
import { deleteTestTopics, requireKafka, uniqueTestName } from '@wayfinder/testing';

const ROOT = join(__dirname, '..', '..', '..', '..');
const name = uniqueTestName('tail');
const prefix = `${name}.`;

const deviation = (tenantId: string, n: number): Deviation => ({
  schema: 'wayfinder.deviation.v1', eventId: `${tenantId}-d${n}`, tenantId, ts: new Date().toISOString(), agentId: 'a1', taskId: 't1', runId: null,
  detector: 'generic_repeat', level: 'warning', count: 3, atSeq: n, loopStartSeq: 0, evidence: { tool: 'search' }, message: `loop ${n}`,
});

function wayfinder(args: string[]) {
  return spawn(process.execPath, [join(ROOT, 'bin', 'wayfinder.js'), ...args], { cwd: ROOT, env: { ...process.env, WAYFINDER_TOPIC_PREFIX: prefix } });
}

describe('wayfinder tail', () => {
  let brokers: string[];
  afterAll(async () => {
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('follows one tenant\'s deviations and never prints another tenant\'s', async () => {
    brokers = await requireKafka();
    const create = wayfinder(['topics', 'create', '--kafka', brokers.join(','), '--partitions', '1']);
    expect(await new Promise((resolve) => create.on('exit', resolve))).toBe(0);
    const tail = wayfinder(['tail', 'deviations', '--tenant', 'acme', '--kafka', brokers.join(',')]);
    let out = '';
    tail.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: `${name}-producer` });
    try {
      // Publish until the tail has joined its group and printed acme's event (it starts from "now").
      const deadline = Date.now() + 60_000;
      let n = 0;
      while (!out.includes('"tenantId":"acme"')) {
        if (Date.now() > deadline) throw new Error(`tail printed nothing of acme: ${out}`);
        await bus.publish('wayfinder.deviations.v1', [deviation('globex', n), deviation('acme', n)]);
        n++;
        await new Promise((r) => setTimeout(r, 500));
      }
      await new Promise((r) => setTimeout(r, 500));
      const lines = out.trim().split('\n').map((l) => JSON.parse(l) as Deviation);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((d) => d.tenantId === 'acme')).toBe(true);
    } finally {
      tail.kill('SIGINT');
      await new Promise((resolve) => tail.on('exit', resolve));
      await bus.stop();
    }
  });
});
