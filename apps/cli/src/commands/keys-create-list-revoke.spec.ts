// `wayfinder keys` in embedded mode: create prints a key once and stores only its hash in
// .wayfinder/keys.json of the working directory; list shows ids, never keys; revoke stops the key; bad
// arguments get one line and exit 2.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { hashApiKey } from '@wayfinder/tenancy';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

describe('wayfinder keys (embedded)', () => {
  const cwd = process.cwd();
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wf-keys-cli-'));
    process.chdir(dir);
  });
  afterEach(() => process.chdir(cwd));

  it('creates, lists and revokes a tenant key', async () => {
    const created = captureIo();
    expect(await runCli(['keys', 'create', '--tenant', 'acme', '--mode', 'embedded'], created)).toBe(0);
    const key = created.out().trim();
    expect(key).toMatch(/^wf_acme_[A-Za-z0-9_-]{32}$/);
    const keyId = /created (key_[0-9a-f]+)/.exec(created.err())?.[1] as string;
    expect(keyId).toBeDefined();
    const file = readFileSync(keysFilePath(dir), 'utf8');
    expect(file).not.toContain(key);
    expect(file).toContain(hashApiKey(key));
    const store = new FileKeyStore(keysFilePath(dir));
    expect((await store.findByHash(hashApiKey(key)))?.tenantId).toBe('acme');

    const listed = captureIo();
    expect(await runCli(['keys', 'list', '--tenant', 'acme', '--mode', 'embedded'], listed)).toBe(0);
    expect(listed.out()).toMatch(new RegExp(`^${keyId}\\toperator\\tactive\\tcreated `));
    expect(listed.out()).not.toContain(key);

    expect(await runCli(['keys', 'revoke', '--tenant', 'globex', keyId, '--mode', 'embedded'], captureIo())).toBe(2);
    expect(await runCli(['keys', 'revoke', '--tenant', 'acme', keyId, '--mode', 'embedded'], captureIo())).toBe(0);
    expect(await store.findByHash(hashApiKey(key))).toBeUndefined();
  });

  it('creates a viewer key with --role viewer', async () => {
    const created = captureIo();
    expect(await runCli(['keys', 'create', '--tenant', 'acme', '--role', 'viewer', '--mode', 'embedded'], created)).toBe(0);
    expect(created.err()).toMatch(/created key_[0-9a-f]+ \(viewer\) for tenant acme/);
    const store = new FileKeyStore(keysFilePath(dir));
    expect((await store.findByHash(hashApiKey(created.out().trim())))?.role).toBe('viewer');
    const listed = captureIo();
    expect(await runCli(['keys', 'list', '--tenant', 'acme', '--mode', 'embedded'], listed)).toBe(0);
    expect(listed.out()).toMatch(/^key_[0-9a-f]+\tviewer\tactive\t/);
  });

  it.each([
    [['keys', 'create', '--tenant', 'a', '--role', 'admin'], /^wayfinder keys: --role must be one of operator, viewer, got 'admin'/],
    [['keys', 'list', '--tenant', 'a', '--role', 'viewer'], /^wayfinder keys: --role applies to create only/],
    [['keys'], /^wayfinder keys: missing action/],
    [['keys', 'create'], /^wayfinder keys: --tenant is required/],
    [['keys', 'rotate', '--tenant', 'a'], /^wayfinder keys: unknown action 'rotate'/],
    [['keys', 'revoke', '--tenant', 'a'], /^wayfinder keys: revoke takes one KEYID/],
    [['keys', 'create', '--tenant', 'a b'], /^wayfinder keys: --tenant: the tenant must not contain whitespace/],
    [['keys', 'create', '--tenant', 'a', '--mode', 'cloud'], /^wayfinder keys: invalid configuration: WAYFINDER_MODE/],
  ])('%j exits 2 with a one-line reason', async (argv, reason) => {
    const io = captureIo();
    expect(await runCli(argv, io)).toBe(2);
    const lines = io.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(reason);
  });
});
