// Long-term memory stores only what the write rules allow, once, per tenant, and recalls by relevance to the milestone.
import { HashingEmbedder } from '@wayfinder/embeddings';
import { InMemoryVectorStore } from './in-memory-vector-store';
import { LongTermMemory } from './long-term-memory';

function setup() {
  const embedder = new HashingEmbedder({ dimension: 256 });
  const store = new InMemoryVectorStore({ dimension: embedder.dimension });
  return { store, memory: new LongTermMemory(store, embedder) };
}

describe('long-term memory', () => {
  it('remembers conclusions and skips guesses, with the reason', async () => {
    const { memory } = setup();
    const kept = await memory.remember({
      tenantId: 'acme',
      taskId: 't1',
      milestoneId: 'm2',
      candidate: { source: 'conclusion', text: 'Vendor B costs 12 dollars per seat per month' },
    });
    expect(kept).toMatchObject({ write: true, kind: 'conclusion' });
    const skipped = await memory.remember({
      tenantId: 'acme',
      taskId: 't1',
      candidate: { source: 'conclusion', text: 'Vendor C is probably the cheapest' },
    });
    expect(skipped).toMatchObject({ write: false });
    expect(skipped.id).toBeUndefined();
    const recalled = await memory.recall({ tenantId: 'acme', text: 'cheapest vendor price per seat', milestoneId: 'm2' });
    expect(recalled.map((m) => m.text)).toEqual(['Vendor B costs 12 dollars per seat per month']);
  });

  it('remembering the same thing twice keeps one point', async () => {
    const { memory, store } = setup();
    const input = { tenantId: 'acme', taskId: 't1', candidate: { source: 'feedback' as const, text: 'Do not cite Wikipedia' } };
    const a = await memory.remember(input);
    const b = await memory.remember(input);
    expect(a.id).toBe(b.id);
    expect(await store.query({ tenantId: 'acme', vector: new HashingEmbedder().embedSync('wikipedia'), limit: 10 })).toHaveLength(1);
  });

  it('recalls the current milestone’s and task-wide memories, never another tenant’s', async () => {
    const { memory } = setup();
    const conclusion = (tenantId: string, milestoneId: string | undefined, text: string) =>
      memory.remember({ tenantId, taskId: 't1', milestoneId, candidate: { source: 'conclusion', text } });
    await conclusion('acme', 'm1', 'Pricing pages list five competitors overall');
    await conclusion('acme', 'm2', 'Pricing of vendor B is 12 dollars per seat');
    await conclusion('acme', undefined, 'Reports use pricing tables in euros');
    await conclusion('globex', 'm2', 'Pricing of vendor Z is secret internal data');

    const recalled = await memory.recall({ tenantId: 'acme', text: 'pricing of vendors per seat', milestoneId: 'm2' });
    const texts = recalled.map((m) => m.text);
    expect(texts).toContain('Pricing of vendor B is 12 dollars per seat');
    expect(texts).toContain('Reports use pricing tables in euros');
    expect(texts).not.toContain('Pricing pages list five competitors overall');
    expect(texts.join(' ')).not.toContain('vendor Z');
  });
});
