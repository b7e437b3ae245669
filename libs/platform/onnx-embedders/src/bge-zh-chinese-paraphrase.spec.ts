/** @jest-environment ./libs/platform/onnx-embedders/testing/onnx-jest-environment.js */
import { cosine } from '@wayfinder/embeddings';
import { embedderContract } from '@wayfinder/embeddings/testing';
import { loadRequiredModel } from './model-files.testing';
import type { OnnxEmbedder } from './onnx-embedder';

const texts = {
  base: '搜索ACME公司2024年每个季度的营业收入',
  paraphrase: '查找ACME在2024年各季度赚了多少钱',
  unrelated: '猫整个下午都睡在温暖的窗台上',
};

embedderContract('bge-zh (onnxruntime, real model files)', () => loadRequiredModel('bge-zh'), texts);

describe('bge-zh on Chinese paraphrases', () => {
  let bge: OnnxEmbedder;
  beforeAll(async () => {
    bge = await loadRequiredModel('bge-zh');
  });
  afterAll(() => bge.release());

  it('scores a reworded sentence above an unrelated one by a wide margin', async () => {
    const [base, paraphrase, unrelated] = await bge.embed([texts.base, texts.paraphrase, texts.unrelated]);
    expect(bge.dimension).toBe(512);
    expect(cosine(base, paraphrase)).toBeGreaterThan(cosine(base, unrelated) + 0.25);
  });

  it('reads English words in any case (its vocabulary is uncased)', () => {
    expect(bge.tokenIds('Search ACME')).toEqual(bge.tokenIds('search acme'));
  });
});
