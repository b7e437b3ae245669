/**
 * The detector worker with a tenant whose policy chooses a semantic embedder for drift and
 * semantic_repetition: each batch's texts are embedded in one prefetch before the detectors run (no
 * vector read without one), texts repeated by the agent are embedded once, and another tenant on the
 * default profile embeds nothing. The embedder here records calls (the real models have their own specs).
 */
import type { LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { EmbeddingCache, HashingEmbedder, type Embedder } from '@wayfinder/embeddings';
import { InMemoryMapStore, PolicyBook } from '@wayfinder/service-core';
import type { Bus } from '@wayfinder/bus';
import { LocalizedHandler } from './localized.handler';

const UNKNOWN = { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' as const };

function localized(tenantId: string, seq: number, text: string): LocalizedStep {
  const step: StepEvent = { schema: 'wayfinder.step.v1', eventId: `${tenantId}-${seq}`, tenantId, agentId: 'a1', taskId: 'task', runId: 'r1', seq, ts: '2026-01-01T00:00:00.000Z', kind: 'message', message: { role: seq === 0 ? 'user' : 'assistant', text } };
  return { schema: 'wayfinder.localized.v1', eventId: step.eventId, tenantId, ts: step.ts, step, position: UNKNOWN };
}

describe('detector worker with a semantic embedder chosen by a tenant policy', () => {
  it('prefetches each batch once, embeds a repeated text once, and leaves hashing tenants alone', async () => {
    const calls: string[][] = [];
    const hashing = new HashingEmbedder({ dimension: 64 });
    const model: Embedder = { id: 'recording', name: 'minilm', dimension: 64, embed: async (texts) => (calls.push([...texts]), hashing.embed(texts)) };
    const vectors = new EmbeddingCache({ hashing: new HashingEmbedder(), semantic: [model] });
    const policies = new PolicyBook();
    policies.apply({
      schema: 'wayfinder.policy.v1', eventId: 'p1', tenantId: 'semantic', ts: '2026-01-01T00:00:00.000Z',
      policy: { embedders: { drift: 'minilm', semanticRepetition: 'minilm' } },
    });
    const published: unknown[] = [];
    const bus = { publish: async (_topic: string, events: unknown[]) => void published.push(...events) } as unknown as Bus;
    const handler = new LocalizedHandler(bus, policies, new InMemoryMapStore(), new HashingEmbedder(), undefined, vectors);

    const same = 'Still no revenue figure in the sources; I will search again.';
    await handler.onLocalized([localized('semantic', 0, 'Find the revenue of ACME for 2024'), localized('semantic', 1, same), localized('semantic', 2, same), localized('default', 0, 'Find the revenue of ACME'), localized('default', 1, same)]);
    expect(calls).toEqual([['Find the revenue of ACME for 2024', same]]);
    await handler.onLocalized([localized('semantic', 3, same), localized('semantic', 4, 'A new text')]);
    expect(calls).toEqual([['Find the revenue of ACME for 2024', same], ['A new text']]);
    expect(vectors.stats.misses).toBe(0);
  });
});
