// The operators' gateway commands against a real gateway (embedded pipeline, two tenants' keys and a
// viewer key): `policy get|set`, `task submit`, `agent resume` act as the key's tenant only: a file naming
// another tenant, another tenant's agent and a viewer key are refused with one line and a non-zero exit,
// and nothing of the refused call happens; `policy set` validates first (every problem, exit 2, nothing sent).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@wayfinder/config';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import { generateApiKey } from '@wayfinder/tenancy';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const A = 'acme-secret-key';
const B = 'globex-secret-key';
const dir = mkdtempSync(join(tmpdir(), 'wf-operator-cli-'));
const file = (name: string, body: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
};

async function until(what: string, probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('operator commands through the gateway act as the key tenant', () => {
  let running: RunningServices;
  let base: string;
  let viewer: string;
  const cli = async (...argv: string[]) => {
    const io = captureIo();
    const code = await runCli(argv, io);
    return { code, out: io.out(), err: io.err() };
  };
  const as = (key: string) => ['--gateway', base, '--key', key];

  beforeAll(async () => {
    const workingDir = mkdtempSync(join(tmpdir(), 'wf-operator-gw-'));
    const view = generateApiKey('acme', new Date(), undefined, 'viewer');
    await new FileKeyStore(keysFilePath(workingDir)).add(view.record);
    viewer = view.key;
    running = await startServices({ ...loadConfig({ WAYFINDER_GATEWAY_PORT: '0', WAYFINDER_API_KEYS: `acme:${A},globex:${B}` }), workingDir }, { logger: false });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('policy get prints the key tenant\'s policy; set validates, sets, and refuses another tenant', async () => {
    const got = await cli('policy', 'get', ...as(A));
    expect(got.code).toBe(0);
    expect(JSON.parse(got.out)).toMatchObject({ schema: 'wayfinder.policy.v1', tenantId: 'acme' });

    const bad = await cli('policy', 'set', file('bad.json', { policy: { loop: { warning: 0 }, sleepy: true }, webhook: { url: 'ftp://x', format: 'teams' } }), ...as(A));
    expect(bad.code).toBe(2);
    expect(bad.out.trim().split('\n')).toEqual(expect.arrayContaining([expect.stringMatching(/^policy\.loop\.warning: /), expect.stringMatching(/^policy: .*sleepy/), expect.stringMatching(/^webhook\.url: /), expect.stringMatching(/^webhook\.format: /)]));
    expect(running.policyBook.tenant('acme')).toBeUndefined();

    const set = await cli('policy', 'set', file('good.json', { policy: { loop: { warning: 4 } }, shadow: true }), ...as(A));
    expect(set).toMatchObject({ code: 0, out: expect.stringMatching(/^set the policy of tenant acme \(event [0-9a-f-]{36}\)\n$/) });
    expect(running.policyBook.policyOf('acme', 'report', 'a1').loop.warning).toBe(4);
    expect(JSON.parse((await cli('policy', 'get', ...as(A))).out)).toMatchObject({ tenantId: 'acme', shadow: true, policy: { loop: { warning: 4 } } });
    // B reads its own (defaults), never A's.
    const other = JSON.parse((await cli('policy', 'get', ...as(B))).out);
    expect(other.tenantId).toBe('globex');
    expect(other.shadow).toBeUndefined();

    const foreign = await cli('policy', 'set', file('foreign.json', { tenantId: 'acme', policy: { loop: { warning: 9 } } }), ...as(B));
    expect(foreign.code).toBe(1);
    expect(foreign.err).toMatch(/^wayfinder policy: the gateway refused \(403\): tenantId "acme" is not the tenant of this key/);
    expect(foreign.err.trimEnd().split('\n')).toHaveLength(1);
    expect(running.policyBook.policyOf('acme', 'report', 'a1').loop.warning).toBe(4);

    const viewed = await cli('policy', 'set', file('viewer.json', { policy: { loop: { warning: 7 } } }), ...as(viewer));
    expect(viewed.code).toBe(1);
    expect(viewed.err).toMatch(/^wayfinder policy: the gateway refused \(403\): this key has the viewer role/);
    expect(running.policyBook.policyOf('acme', 'report', 'a1').loop.warning).toBe(4);
    expect((await cli('policy', 'get', ...as(viewer))).code).toBe(0);
  });

  it('task submit prints the map summary, as json too, and refuses a task of another tenant', async () => {
    const task = file('task.json', { taskId: 'report', goal: 'Read the sales data -> compute the totals -> write the report' });
    const text = await cli('task', 'submit', task, ...as(A));
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^map \S+ of task report \(tenant acme\), version 1: 3 milestones \(.+\), \d+ anchors?, \d+ constraints?\n$/);
    const json = await cli('task', 'submit', task, '--format', 'json', ...as(A));
    expect(JSON.parse(json.out)).toMatchObject({ schema: 'wayfinder.map.v1', tenantId: 'acme', taskId: 'report', version: 1 });
    await until('the map of acme', async () => (await running.mapStore.get('acme', 'report')) !== undefined);

    const foreign = await cli('task', 'submit', file('foreign-task.json', { tenantId: 'acme', taskId: 'stolen', goal: 'Do something' }), ...as(B));
    expect(foreign.code).toBe(1);
    expect(foreign.err).toMatch(/^wayfinder task: the gateway refused \(403\): tenantId "acme" is not the tenant of this key/);
    const broken = await cli('task', 'submit', file('cycle.json', { taskId: 'c', goal: 'x', milestones: [{ id: 'a', description: 'a', dependsOn: ['b'] }, { id: 'b', description: 'b', dependsOn: ['a'] }] }), ...as(A));
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/^wayfinder task: the gateway refused \(400\): .*cycle/);
    await new Promise((r) => setTimeout(r, 300));
    expect(await running.mapStore.get('acme', 'stolen')).toBeUndefined();
    expect(await running.mapStore.get('globex', 'stolen')).toBeUndefined();
  });

  it("agent resume resumes the key tenant's agent, and another tenant's agent is not found", async () => {
    const steps: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 25; i++) {
      steps.push({ agentId: 'looper', taskId: 'report', runId: 'r1', seq: 2 * i, kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${i}` } });
      steps.push({ agentId: 'looper', taskId: 'report', runId: 'r1', seq: 2 * i + 1, kind: 'observation', observation: { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } });
    }
    // acme is in shadow mode since the first test: globex's own looper must not exist; acme's gets would-send records only,
    // so resume is tried on a globex agent that has corrections.
    await fetch(`${base}/v1/steps`, { method: 'POST', headers: { authorization: `Bearer ${B}`, 'content-type': 'application/json' }, body: JSON.stringify(steps) });
    await until('a correction of globex/looper', async () => {
      const answer = await fetch(`${base}/v1/agents/looper/corrections`, { headers: { authorization: `Bearer ${B}` } });
      return ((await answer.json()) as { corrections: unknown[] }).corrections.length > 0;
    });
    const foreign = await cli('agent', 'resume', 'looper', ...as(A));
    expect(foreign.code).toBe(1);
    expect(foreign.err).toMatch(/^wayfinder agent: the gateway refused \(404\): no agent looper with corrections/);
    const viewed = await cli('agent', 'resume', 'looper', ...as(viewer));
    expect(viewed.code).toBe(1);
    expect(viewed.err).toMatch(/\(403\): this key has the viewer role/);
    const otherTenant = await cli('agent', 'resume', 'looper', '--tenant', 'globex', ...as(A));
    expect(otherTenant.code).toBe(1);
    expect(otherTenant.err).toBe('wayfinder agent: the gateway refused (403): this key belongs to another tenant than globex [tenantId]\n');
    const resumed = await cli('agent', 'resume', 'looper', '--tenant', 'globex', '--reason', 'checked by a person', ...as(B));
    expect(resumed).toMatchObject({ code: 0, out: 'resumed looper of tenant globex\n' });
    expect(await running.history.agentHistory('globex', 'looper', { kinds: ['ack'] })).toEqual([expect.objectContaining({ subject: 'resume', note: 'checked by a person' })]);
    expect(await running.history.agentHistory('acme', 'looper', { kinds: ['ack'] })).toEqual([]);
  });

  it.each([
    [['policy', 'get', '--gateway', 'ftp://x'], /^wayfinder policy: --gateway \(or WAYFINDER_GATEWAY_URL\) must be an http\(s\) URL, got 'ftp:\/\/x'/],
    [['policy', 'set'], /^wayfinder policy: expected 'policy set FILE'/],
    [['policy', 'set', '/nonexistent.json'], /^wayfinder policy: cannot read \/nonexistent\.json as JSON/],
    [['policy', 'sync'], /^wayfinder policy: expected 'policy validate FILE', 'policy get' or 'policy set FILE', got 'sync'/],
    [['task'], /^wayfinder task: expected 'task submit FILE', got '\(nothing\)'/],
    [['task', 'submit'], /^wayfinder task: task submit takes one FILE/],
    [['task', 'submit', 'x.json', '--format', 'xml'], /^wayfinder task: --format must be text or json, got 'xml'/],
    [['agent', 'pause', 'a1'], /^wayfinder agent: expected 'agent resume ID', got 'pause a1'/],
    [['agent', 'resume'], /^wayfinder agent: agent resume takes one agent ID/],
    [['agent', 'resume', 'a1', '--key', 'two words'], /^wayfinder agent: --key \(or WAYFINDER_KEY\) must be one key without whitespace/],
    [['agent', 'resume', 'a1', '--tenant', 'two words'], /^wayfinder agent: --tenant: the tenant must not contain whitespace/],
  ])('%j exits 2 with a one-line reason', async (argv, reason) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).toMatch(reason);
  });

  it('says in one line when the gateway does not answer (exit 1)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const { code, err } = await cli('policy', 'get', '--gateway', `http://127.0.0.1:${port}`, '--key', A);
    expect(code).toBe(1);
    expect(err).toBe(`wayfinder policy: the gateway at http://127.0.0.1:${port} does not answer: ECONNREFUSED\n`);
  });
});
