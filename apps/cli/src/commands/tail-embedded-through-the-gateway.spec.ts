// `wayfinder tail` in the embedded quick start (no Kafka configured): it follows the gateway's fleet
// stream and prints the named tenant's deviations as JSON lines until Ctrl-C (exit 0); a gateway that is
// not there, or refuses the key, is one line on stderr and exit 1 from the real process, no stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import { StreamSlots } from '@wayfinder/service-gateway';
import { closedPort, runCliProcess } from '../operator/cli-process.testing';

const BIN = resolve(__dirname, '..', '..', '..', '..', 'bin', 'wayfinder.js');

/** No Kafka in the environment: the quick start's. */
const NO_KAFKA = { WAYFINDER_KAFKA_BROKERS: '', WAYFINDER_MODE: '' };

function loopSteps(agentId: string): Array<Record<string, unknown>> {
  return Array.from({ length: 25 }, (_, i) => [
    { agentId, taskId: 'report', runId: 'r1', seq: 2 * i, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${i}` } },
    { agentId, taskId: 'report', runId: 'r1', seq: 2 * i + 1, kind: 'observation', observation: { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } },
  ]).flat();
}

describe('tail through the gateway when no Kafka is configured', () => {
  let local: RunningServices;
  let keyed: RunningServices;
  const saved = { ...process.env };

  beforeAll(async () => {
    Object.assign(process.env, NO_KAFKA);
    local = await startServices({ ...loadConfig({ WAYFINDER_GATEWAY_PORT: '0' }), workingDir: mkdtempSync(join(tmpdir(), 'wf-tail-local-')) }, { logger: false });
    keyed = await startServices({ ...loadConfig({ WAYFINDER_GATEWAY_PORT: '0', WAYFINDER_API_KEYS: 'acme:acme-tail-key' }), workingDir: mkdtempSync(join(tmpdir(), 'wf-tail-keyed-')) }, { logger: false });
  });
  afterAll(async () => {
    process.env = saved;
    await local?.stop();
    await keyed?.stop();
  });

  it("prints the named tenant's deviations as they come, only that agent's, and exits 0 on Ctrl-C", async () => {
    const base = local.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    // The real process (Ctrl-C is a signal to it; the services in this process handle their own).
    const child = spawn(process.execPath, [BIN, 'tail', 'deviations', '--tenant', 'sim-acme', '--agent', 'looper', '--gateway', base], { env: { ...process.env, ...NO_KAFKA }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // Connected once the gateway holds its stream.
      const connected = Date.now() + 30_000;
      while (local.gateway!.app.get(StreamSlots).openOf('sim-acme') === 0 && Date.now() < connected) await new Promise((r) => setTimeout(r, 100)); // eslint-disable-line @typescript-eslint/no-non-null-assertion
      for (const agent of ['looper', 'other']) {
        const posted = await fetch(`${base}/v1/steps?tenantId=sim-acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(loopSteps(agent)) });
        expect(posted.status).toBe(202);
      }
      const deadline = Date.now() + 20_000;
      while (!out.includes('"kind":"deviation"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1_500));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    expect(err).toBe('');
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { id: string; kind: string; tenantId: string; agentId: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((r) => r.kind === 'deviation' && r.tenantId === 'sim-acme' && r.agentId === 'looper')).toBe(true);
    expect(new Set(lines.map((r) => r.id)).size).toBe(lines.length);
  }, 90_000);

  it('one line and exit 1 when the gateway is down', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCliProcess(['tail', 'deviations', '--gateway', url], NO_KAFKA, 60_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([`wayfinder tail: the gateway at ${url} does not answer: ECONNREFUSED`]);
  }, 90_000);

  it('one line and exit 1 when the gateway refuses the key', async () => {
    const base = keyed.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    const run = await runCliProcess(['tail', 'corrections', '--gateway', base, '--key', 'not-a-key'], NO_KAFKA, 60_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual(['wayfinder tail: the gateway refused (401): unknown or revoked API key']);
  }, 90_000);
});
