/**
 * `wayfinder tail deviations --key <acme's key>` on the real broker and Redis, with WAYFINDER_TOPIC_PREFIX
 * (the topics made by `topics create` under the same prefix): prints acme's new deviations as JSON lines
 * and none of another tenant's with the same agent id; asking for another tenant with acme's key, or
 * tailing with no key, is refused with a one-line reason.
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

const ACME_KEY = `wf_${name.replace(/[^a-z0-9]/gi, '')}acme`;
const GLOBEX_KEY = `wf_${name.replace(/[^a-z0-9]/gi, '')}globex`;

function wayfinder(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_API_KEYS: `acme:${ACME_KEY},globex:${GLOBEX_KEY}` };
  delete env['WAYFINDER_KEY'];
  return spawn(process.execPath, [join(ROOT, 'bin', 'wayfinder.js'), ...args], { cwd: ROOT, env });
}

async function finished(child: ReturnType<typeof wayfinder>): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr };
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
    const tail = wayfinder(['tail', 'deviations', '--key', ACME_KEY, '--kafka', brokers.join(',')]);
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

  it('refuses another tenant with this key, and a tail with no key, naming why', async () => {
    brokers = await requireKafka();
    const other = await finished(wayfinder(['tail', 'deviations', '--key', ACME_KEY, '--tenant', 'globex', '--kafka', brokers.join(',')]));
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/another tenant than globex/);
    expect(other.stderr.trim().split('\n')).toHaveLength(1);
    const keyless = await finished(wayfinder(['tail', 'deviations', '--kafka', brokers.join(',')]));
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toMatch(/--key \(or WAYFINDER_KEY\) is required/);
  });
});
