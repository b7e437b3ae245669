import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captureIo } from './cli-test-io';
import { policyCommand } from './policy.command';

const dir = mkdtempSync(join(tmpdir(), 'wf-policy-'));
const file = (name: string, body: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
};
const envelope = { schema: 'wayfinder.policy.v1', eventId: 'p1', tenantId: 'acme', ts: '2026-03-01T10:00:00.000Z' };

describe('wayfinder policy validate', () => {
  it('prints every problem with its path and exits 2', async () => {
    const io = captureIo();
    const code = await policyCommand.run(['validate', file('bad.json', { ...envelope, policy: { loop: { warning: 0 }, sleepy: true }, webhook: { url: 'ftp://x', format: 'teams' } })], io);
    expect(code).toBe(2);
    const lines = io.out().trim().split('\n');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^policy\.loop\.warning: /), expect.stringMatching(/^policy: .*sleepy/), expect.stringMatching(/^webhook\.url: /), expect.stringMatching(/^webhook\.format: /)]));
  });

  it('checks each override for contradictions and says valid when all is well', async () => {
    const contradictory = { ...envelope, policy: {}, agents: { 'bot-1': { loop: { warning: 9, critical: 3 } } } };
    const io = captureIo();
    expect(await policyCommand.run(['validate', file('contra.json', contradictory)], io)).toBe(2);
    expect(io.out()).toMatch(/^agents\.bot-1: /);
    const ok = captureIo();
    expect(await policyCommand.run(['validate', file('ok.json', { ...envelope, policy: { profile: 'strict' }, shadow: true })], ok)).toBe(0);
    expect(ok.out()).toBe('valid\n');
  });
});
