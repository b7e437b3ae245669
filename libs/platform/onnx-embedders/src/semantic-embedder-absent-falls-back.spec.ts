import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { agentKey } from '@wayfinder/embeddings';
import { createEmbeddingCache } from './load-embedders';

describe('semantic embedders whose model files are absent', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wayfinder-no-models-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('say so once and are served by hashing', async () => {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    const first = await createEmbeddingCache(['minilm', 'bge-zh', 'minilm'], { modelsDir: dir, warn });
    const second = await createEmbeddingCache(['minilm'], { modelsDir: dir, warn });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`embedder 'minilm': model files not found in ${dir}/minilm`);
    expect(warnings[0]).toContain('npm run models:fetch');
    expect(warnings[1]).toContain("embedder 'bge-zh'");
    for (const cache of [first, second]) {
      expect(cache.available).toEqual(['hashing']);
      expect(cache.served('minilm')).toBe('hashing');
      expect(cache.served('bge-zh')).toBe('hashing');
    }
    // The fallback answers synchronously, with no prefetch: hashing computes the vector.
    const v = first.vectorOf('minilm', agentKey('t', 'a'), 'search the quarterly revenue');
    expect(v).toHaveLength(256);
    expect(first.stats.misses).toBe(0);
  });
});
