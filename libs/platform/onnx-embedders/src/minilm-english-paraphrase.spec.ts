/** @jest-environment ./libs/platform/onnx-embedders/testing/onnx-jest-environment.js */
import { cosine } from '@wayfinder/embeddings';
import { embedderContract } from '@wayfinder/embeddings/testing';
import { loadRequiredModel } from './model-files.testing';
import type { OnnxEmbedder } from './onnx-embedder';

const texts = {
  base: 'Find the quarterly revenue figures of ACME Corporation for 2024.',
  paraphrase: 'Look up how much money ACME Corp made each quarter in 2024.',
  unrelated: 'The cat slept on the warm windowsill all afternoon.',
};

embedderContract('minilm (onnxruntime, real model files)', () => loadRequiredModel('minilm'), texts);

describe('minilm on English paraphrases', () => {
  let minilm: OnnxEmbedder;
  beforeAll(async () => {
    minilm = await loadRequiredModel('minilm');
  });
  afterAll(() => minilm.release());

  it('scores a reworded sentence high and an unrelated one low, where hashing sees little shared wording', async () => {
    const [base, paraphrase, unrelated] = await minilm.embed([texts.base, texts.paraphrase, texts.unrelated]);
    expect(minilm.dimension).toBe(384);
    expect(cosine(base, paraphrase)).toBeGreaterThan(0.6);
    expect(cosine(base, unrelated)).toBeLessThan(0.2);
  });

  it('cuts long texts at its token limit instead of failing', async () => {
    const long = 'revenue '.repeat(2000);
    const [v] = await minilm.embed([long]);
    expect(cosine(v, v)).toBeCloseTo(1, 4);
    expect(minilm.tokenIds(long)).toHaveLength(256);
  });
});
