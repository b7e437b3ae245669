// `wayfinder agent resume ID --tenant T` against a gateway in local mode (no keys, loopback), as after
// `wayfinder start --simulate`: the agents belong to the simulated tenants, not to "local". Without
// --tenant the agent is not found (tenant local); with it, the agent is resumed and its history has
// the ack under that tenant.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@wayfinder/config';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

describe('agent resume --tenant in local mode', () => {
  let running: RunningServices;
  let base: string;
  const cli = async (...argv: string[]) => {
    const io = captureIo();
    const code = await runCli([...argv, '--gateway', base], io);
    return { code, out: io.out(), err: io.err() };
  };

  beforeAll(async () => {
    running = await startServices({ ...loadConfig({ WAYFINDER_GATEWAY_PORT: '0' }), workingDir: mkdtempSync(join(tmpdir(), 'wf-resume-local-')) }, { logger: false });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it("resumes the named tenant's agent; without --tenant it is tenant local's, which has none", async () => {
    const steps: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 25; i++) {
      steps.push({ agentId: 'looper', taskId: 'report', runId: 'r1', seq: 2 * i, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${i}` } });
      steps.push({ agentId: 'looper', taskId: 'report', runId: 'r1', seq: 2 * i + 1, kind: 'observation', observation: { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } });
    }
    const posted = await fetch(`${base}/v1/steps?tenantId=sim-acme`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(steps) });
    expect(posted.status).toBe(202);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await fetch(`${base}/v1/agents/looper/corrections?tenantId=sim-acme`);
      if (((await answer.json()) as { corrections: unknown[] }).corrections.length > 0) break;
      if (Date.now() > deadline) throw new Error('timed out waiting for a correction of sim-acme/looper');
      await new Promise((r) => setTimeout(r, 50));
    }

    const unnamed = await cli('agent', 'resume', 'looper');
    expect(unnamed.code).toBe(1);
    expect(unnamed.err).toMatch(/^wayfinder agent: the gateway refused \(404\): no agent looper with corrections/);

    const named = await cli('agent', 'resume', 'looper', '--tenant', 'sim-acme', '--reason', 'looked at it');
    expect(named).toEqual({ code: 0, out: 'resumed looper of tenant sim-acme\n', err: '' });
    expect(await running.history.agentHistory('sim-acme', 'looper', { kinds: ['ack'] })).toEqual([expect.objectContaining({ subject: 'resume', note: 'looked at it' })]);
    expect(await running.history.agentHistory('local', 'looper', { kinds: ['ack'] })).toEqual([]);
  }, 60_000);
});
