// FileKeyStore passes the KeyStore contract in a temporary folder, keeps only hashes on disk with mode
// 0600, and a second instance on the same file (another process) sees keys added and revoked.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@wayfinder/tenancy';
import { keyStoreContract } from '@wayfinder/tenancy/testing';
import { FileKeyStore, keysFilePath } from './file-key-store';

keyStoreContract(() => new FileKeyStore(keysFilePath(mkdtempSync(join(tmpdir(), 'wf-keys-')))));

describe('FileKeyStore on disk', () => {
  it('writes hashes only, private to the user, and is shared by every instance on the file', async () => {
    const path = keysFilePath(mkdtempSync(join(tmpdir(), 'wf-keys-')));
    const writer = new FileKeyStore(path);
    const reader = new FileKeyStore(path);
    expect(await reader.hasActiveKeys()).toBe(false);
    const created = generateApiKey('acme');
    await writer.add(created.record);
    expect(readFileSync(path, 'utf8')).not.toContain(created.key);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((await reader.findByHash(created.record.hash))?.tenantId).toBe('acme');
    await writer.revoke('acme', created.record.keyId);
    expect(await reader.findByHash(created.record.hash)).toBeUndefined();
  });
});
