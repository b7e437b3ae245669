/**
 * The contract every Embedder adapter passes (STYLE: ports with contract suites): vectors in input
 * order, one per text, unit length (the empty text: zero), a batch equal to its texts one by one,
 * deterministic, and a paraphrase closer than an unrelated text.
 */
import { cosine, type Embedder } from '../embedder';

export interface EmbedderContractTexts {
  base: string;
  paraphrase: string;
  unrelated: string;
}

export function embedderContract(label: string, make: () => Promise<Embedder> | Embedder, texts: EmbedderContractTexts): void {
  describe(`Embedder contract: ${label}`, () => {
    let embedder: Embedder;
    beforeAll(async () => {
      embedder = await make();
    });

    it('returns one unit vector of its dimension per text, in order', async () => {
      const vectors = await embedder.embed([texts.base, texts.unrelated, texts.base]);
      expect(vectors).toHaveLength(3);
      for (const v of vectors) {
        expect(v).toHaveLength(embedder.dimension);
        expect(cosine(v, v)).toBeCloseTo(1, 4);
      }
      expect(cosine(vectors[0], vectors[2])).toBeCloseTo(1, 5);
      expect(cosine(vectors[0], vectors[1])).toBeLessThan(0.99);
    });

    it('embeds a batch as it embeds each text alone', async () => {
      const batch = await embedder.embed([texts.base, texts.paraphrase, texts.unrelated]);
      const alone = await Promise.all([texts.base, texts.paraphrase, texts.unrelated].map(async (t) => (await embedder.embed([t]))[0]));
      batch.forEach((v, i) => expect(cosine(v, alone[i])).toBeCloseTo(1, 4));
    });

    it('embeds the empty text as the zero vector and an empty batch as nothing', async () => {
      const [empty] = await embedder.embed(['']);
      expect(Array.from(empty).every((x) => x === 0)).toBe(true);
      expect(await embedder.embed([])).toEqual([]);
    });

    it('ranks a paraphrase above an unrelated text', async () => {
      const [base, paraphrase, unrelated] = await embedder.embed([texts.base, texts.paraphrase, texts.unrelated]);
      expect(cosine(base, paraphrase)).toBeGreaterThan(cosine(base, unrelated) + 0.2);
    });
  });
}
