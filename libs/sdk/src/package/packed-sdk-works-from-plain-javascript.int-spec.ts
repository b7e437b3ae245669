/**
 * Packaging (issue 11): the built SDK (`node libs/sdk/scripts/build-package.mjs`) packs with `npm pack`,
 * installs from the tarball into an empty folder with `npm install --offline` (zod and re2js, its dependencies,
 * come from tarballs packed out of this repo's node_modules: nothing is fetched), and a plain
 * JavaScript project — CommonJS and ESM, no TypeScript tooling — uses it: the guard corrects a
 * 25-call loop, applyCorrection puts the hint in place, a freeze is an AgentFrozenError, and the HTTP
 * transport talks to a gateway. The optional peers (kafkajs, @langchain/core, ai) are not installed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContractGateway, hintFor } from '../testing/contract-gateway.testing';

const root = path.resolve(__dirname, '../../../..');

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const AGENT = `
const { createGuard, applyCorrection, AgentFrozenError } = require('@wayfinder/sdk');
(async () => {
  const client = createGuard({ agentId: 'plain-js', taskId: 'sales-report' });
  const corrections = [];
  client.onCorrection((c) => { corrections.push(c); });
  let messages = [{ role: 'system', content: 'You are a data analyst.' }, { role: 'user', content: 'Write the report.' }];
  let frozen = null;
  let hintInPlace = false;
  const actions = [];
  for (let i = 0; i < 25 && !frozen; i++) {
    const callId = await client.action('read_file', { path: '/data/sales.csv' });
    await client.observation('read_file', { callId, error: 'EACCES: permission denied' });
    await client.flush();
    for (const c of corrections.splice(0)) {
      try { messages = applyCorrection(messages, c, { seqs: { seqOf: () => undefined } }); } catch (e) { if (e instanceof AgentFrozenError) frozen = e.escalationId; else throw e; }
      if (c.action === 'hint') hintInPlace = messages[0].content === 'You are a data analyst.' && messages[1].content === c.hint.text;
      actions.push(c.action);
    }
  }
  await client.close();
  console.log(JSON.stringify({ actions, hintInPlace, frozen: frozen !== null }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

const ESM_AGENT = `
import { connectHttp, connectKafka, WayfinderClient } from '@wayfinder/sdk';
import sdk from '@wayfinder/sdk';
const client = connectHttp({ baseUrl: process.env.GATEWAY, agentId: 'esm-agent', taskId: 'report' });
const seen = await new Promise((resolve) => {
  // fromStart: the hint was logged before this agent subscribed (a fresh subscription reads from now).
  const sub = client.onCorrection(async (c) => { await sub.close(); resolve(c.eventId); }, { fromStart: true });
});
const callId = await client.action('search', { q: 'totals' });
await client.observation('search', { callId, content: 'nothing' });
const flushed = await client.flush();
await client.close();
let kafkaError = '';
const direct = connectKafka({ brokers: ['127.0.0.1:1'], tenantId: 't', agentId: 'a', taskId: 't', onError: () => {} });
await direct.message('x');
await direct.flush().catch((e) => { kafkaError = e.message; });
console.log(JSON.stringify({ seen, flushed, kafkaError, sameClass: sdk.WayfinderClient === WayfinderClient }));
`;

describe('the packed SDK', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'wayfinder-sdk-pack-'));
  const gateway = new ContractGateway();
  afterAll(async () => {
    await gateway.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('installs offline from its tarball and works from plain CommonJS and ESM', async () => {
    run(process.execPath, [path.join(root, 'libs/sdk/scripts/build-package.mjs')], root);
    const tarballs = path.join(work, 'tarballs');
    mkdirSync(tarballs);
    run('npm', ['pack', path.join(root, 'dist/sdk'), '--pack-destination', tarballs, '--silent'], work);
    for (const dependency of ['zod', 're2js']) run('npm', ['pack', path.join(root, 'node_modules', dependency), '--pack-destination', tarballs, '--ignore-scripts', '--silent'], work);
    const [sdkTarball, zodTarball, re2Tarball] = ['wayfinder-sdk-', 'zod-', 're2js-'].map((p) => path.join(tarballs, readdirSync(tarballs).find((f) => f.startsWith(p)) ?? ''));

    const project = path.join(work, 'agent');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'plain-js-agent', version: '1.0.0', private: true }));
    run('npm', ['install', zodTarball, re2Tarball, sdkTarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], project);
    expect(readdirSync(path.join(project, 'node_modules')).filter((f) => !f.startsWith('.')).sort()).toEqual(['@wayfinder', 're2js', 'zod']);

    writeFileSync(path.join(project, 'agent.cjs'), AGENT);
    const cjs = JSON.parse(run(process.execPath, ['agent.cjs'], project));
    expect(cjs).toEqual({ actions: ['hint', 'rollback', 'replan', 'freeze'], hintInPlace: true, frozen: true });

    const baseUrl = await gateway.listen();
    gateway.push(hintFor('esm-agent', 1));
    writeFileSync(path.join(project, 'agent.mjs'), ESM_AGENT);
    // Not spawnSync: the child talks to the gateway served by this process.
    const result = await promisify(execFile)(process.execPath, ['agent.mjs'], { cwd: project, encoding: 'utf8', env: { ...process.env, GATEWAY: baseUrl } });
    const esm = JSON.parse(result.stdout);
    expect(esm).toEqual({ seen: 'cor-esm-agent-1', flushed: { accepted: 2, rejected: [] }, kafkaError: 'the Kafka transport needs the kafkajs package: npm install kafkajs', sameClass: true });
    expect(gateway.steps.map((s) => `${s.agentId}:${s.seq}:${s.kind}`)).toEqual(['esm-agent:0:action', 'esm-agent:1:observation']);
  }, 180_000);
});
