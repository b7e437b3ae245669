import type { Embedder } from './embedder';
import { EmbeddingCache } from './embedding-cache';
import { HashingEmbedder } from './hashing-embedder';
import { agentKey } from './vector-source';

/** A semantic embedder stand-in that records its calls (the real models have their own specs). */
function recordingEmbedder(): Embedder & { calls: string[][] } {
  const hashing = new HashingEmbedder({ dimension: 32 });
  const calls: string[][] = [];
  return { id: 'recording', name: 'minilm', dimension: 32, calls, embed: async (texts) => (calls.push([...texts]), hashing.embed(texts)) };
}

describe('EmbeddingCache: a text is embedded once per agent, in batches', () => {
  const a = agentKey('tenant-1', 'agent-a');
  const b = agentKey('tenant-2', 'agent-a');

  it('batches a prefetch, skips what it holds, and serves reads synchronously', async () => {
    const model = recordingEmbedder();
    const cache = new EmbeddingCache({ hashing: new HashingEmbedder(), semantic: [model], batchSize: 2 });
    await cache.prefetch([
      { choice: 'minilm', agent: a, text: 'goal text' },
      { choice: 'minilm', agent: a, text: 'step one' },
      { choice: 'minilm', agent: a, text: 'goal text' },
      { choice: 'minilm', agent: a, text: 'step two' },
      { choice: 'hashing', agent: a, text: 'tool args' },
    ]);
    expect(model.calls).toEqual([['goal text', 'step one'], ['step two']]);
    await cache.prefetch([{ choice: 'minilm', agent: a, text: 'goal text' }]);
    expect(model.calls).toHaveLength(2);
    expect(cache.vectorOf('minilm', a, 'step one')).toHaveLength(32);
    expect(cache.vectorOf('hashing', a, 'tool args')).toHaveLength(256);
    expect(cache.stats).toMatchObject({ embedded: 3, hits: 1, misses: 0, vectors: 3 });
  });

  it('keeps tenants apart: another tenant\'s agent of the same id reads nothing it did not prefetch', async () => {
    const model = recordingEmbedder();
    const cache = new EmbeddingCache({ hashing: new HashingEmbedder(), semantic: [model] });
    await cache.prefetch([{ choice: 'minilm', agent: a, text: 'secret plan' }]);
    expect(cache.vectorOf('minilm', b, 'secret plan')).toBeUndefined();
    expect(cache.stats.misses).toBe(1);
  });

  it('is bounded per agent and in total, evicting the least recently used at the next prefetch', async () => {
    const model = recordingEmbedder();
    const cache = new EmbeddingCache({ hashing: new HashingEmbedder(), semantic: [model], maxTextsPerAgent: 3, maxVectors: 4 });
    await cache.prefetch(['t1', 't2', 't3', 't4', 't5'].map((text) => ({ choice: 'minilm' as const, agent: a, text })));
    // A batch's own vectors stay until its detectors have read them.
    for (const t of ['t1', 't2', 't3', 't4', 't5']) expect(cache.vectorOf('minilm', a, t)).toBeDefined();
    await cache.prefetch(['u1', 'u2'].map((text) => ({ choice: 'minilm' as const, agent: b, text })));
    // a was trimmed to its 3 newest before b's batch came in: one batch above the total limit meanwhile.
    expect(cache.stats.vectors).toBe(5);
    expect(cache.vectorOf('minilm', a, 't1')).toBeUndefined();
    expect(cache.vectorOf('minilm', a, 't2')).toBeUndefined();
    expect(cache.vectorOf('minilm', b, 'u2')).toBeDefined();
    expect(cache.vectorOf('minilm', a, 't5')).toBeDefined(); // a is now the most recently used
    await cache.prefetch([]);
    expect(cache.stats.vectors).toBe(4); // b, the least recently used agent, lost its oldest text
    expect(cache.vectorOf('minilm', b, 'u1')).toBeUndefined();
    expect(cache.vectorOf('minilm', a, 't3')).toBeDefined();
    cache.forget(b);
    expect(cache.vectorOf('minilm', b, 'u2')).toBeUndefined();
  });

  it('cuts texts at maxChars: two texts that differ only past it share one vector', async () => {
    const model = recordingEmbedder();
    const cache = new EmbeddingCache({ hashing: new HashingEmbedder(), semantic: [model], maxChars: 10 });
    await cache.prefetch([{ choice: 'minilm', agent: a, text: '0123456789-first' }, { choice: 'minilm', agent: a, text: '0123456789-second' }]);
    expect(model.calls).toEqual([['0123456789']]);
    expect(cache.vectorOf('minilm', a, '0123456789-anything')).toBeDefined();
  });
});
