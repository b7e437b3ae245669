/**
 * KeyStore in a file (embedded mode): `.wayfinder/keys.json` under the working directory, hashes only,
 * written atomically (temporary file + rename) with mode 0600. Read again whenever the file changed, so
 * a running `wayfinder start` sees keys created or revoked by `wayfinder keys` in another process.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiKeyRecord, KeyStore } from '@wayfinder/tenancy';

interface KeysFile {
  version: 1;
  keys: ApiKeyRecord[];
}

/** Where embedded mode keeps its keys: `<dir>/.wayfinder/keys.json`. */
export function keysFilePath(workingDir: string): string {
  return join(workingDir, '.wayfinder', 'keys.json');
}

export class FileKeyStore implements KeyStore {
  private cache?: { mtimeMs: number; size: number; keys: ApiKeyRecord[] };

  constructor(readonly path: string) {}

  async add(record: ApiKeyRecord): Promise<void> {
    this.write([...this.read(), record]);
  }

  async list(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.read().filter((r) => r.tenantId === tenantId);
  }

  async revoke(tenantId: string, keyId: string, at: Date = new Date()): Promise<boolean> {
    const keys = this.read();
    const index = keys.findIndex((r) => r.tenantId === tenantId && r.keyId === keyId);
    if (index < 0) return false;
    if (!keys[index].revokedAt) {
      keys[index] = { ...keys[index], revokedAt: at.toISOString() };
      this.write(keys);
    }
    return true;
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.read().find((r) => r.hash === hash && !r.revokedAt);
  }

  async hasActiveKeys(): Promise<boolean> {
    return this.read().some((r) => !r.revokedAt);
  }

  private read(): ApiKeyRecord[] {
    let stat;
    try {
      stat = statSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    if (this.cache && this.cache.mtimeMs === stat.mtimeMs && this.cache.size === stat.size) return this.cache.keys.map((r) => ({ ...r }));
    const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<KeysFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.keys)) throw new Error(`${this.path} is not a Wayfinder keys file (version 1)`);
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, keys: parsed.keys };
    return parsed.keys.map((r) => ({ ...r }));
  }

  private write(keys: ApiKeyRecord[]): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: 1, keys } satisfies KeysFile, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.path);
    this.cache = undefined;
  }
}
