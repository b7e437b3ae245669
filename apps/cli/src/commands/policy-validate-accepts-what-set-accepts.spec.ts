// Issue #31: `policy validate` demanded schema/eventId/tenantId/ts, which `policy set` lets a file leave out,
// and named `schema` instead of the bad field. It now checks the file exactly as `set` would send it: the
// same file is valid for both, and a file with one bad value gets one line naming that value's path (the
// same line `set` prints before sending nothing), exit 2.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../command';
import { captureIo } from './cli-test-io';
import { policyCommand } from './policy.command';

const dir = mkdtempSync(join(tmpdir(), 'wf-policy-set-'));
const file = (name: string, body: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
};
// Nothing listens there: `set` must stop at its own check, before any request.
const NO_GATEWAY = ['--gateway', 'http://127.0.0.1:9', '--key', 'wf_acme_unused'];

describe('wayfinder policy validate accepts what policy set accepts', () => {
  it.each([
    ['only the policy', { policy: { loop: { warning: 4 } } }],
    ['an eventId and ts that set replaces', { policy: {}, eventId: '', ts: 'yesterday', shadow: true }],
    ['a tenantId and a schema', { schema: 'wayfinder.policy.v1', tenantId: 'acme', policy: { profile: 'strict' } }],
  ])('says valid for a file with %s', async (_what, body) => {
    const io = captureIo();
    expect(await policyCommand.run(['validate', file('ok.json', body)], io)).toBe(0);
    expect(io.out()).toBe('valid\n');
  });

  it.each([
    ['policy.loop.warning', { policy: { loop: { warning: 0 } } }],
    ['webhook.url', { policy: {}, webhook: { url: 'ftp://hooks.example.com', format: 'generic' } }],
    ['agents.bot-1', { policy: {}, agents: { 'bot-1': { loop: { warning: 9, critical: 3 } } } }],
    ['tenantId', { policy: {}, tenantId: 42 }],
  ])('names %s on one line, exits 2, and set prints the same line and sends nothing', async (field, body) => {
    const path = file('bad.json', body);
    const validate = captureIo();
    expect(await policyCommand.run(['validate', path], validate)).toBe(2);
    const lines = validate.out().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0].startsWith(`${field}: `)).toBe(true);
    expect(validate.out()).not.toMatch(/^(schema|eventId|ts):/m);

    const set = captureIo();
    expect(await policyCommand.run(['set', path, ...NO_GATEWAY], set)).toBe(2);
    expect(set.out()).toBe(validate.out());
  });

  it('refuses a file that is not one object, as set does', async () => {
    const path = file('array.json', [{ policy: {} }]);
    await expect(policyCommand.run(['validate', path], captureIo())).rejects.toThrow(UsageError);
    await expect(policyCommand.run(['set', path, ...NO_GATEWAY], captureIo())).rejects.toThrow(UsageError);
  });
});
