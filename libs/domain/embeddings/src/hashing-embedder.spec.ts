import { cosine } from './embedder';
import { HashingEmbedder } from './hashing-embedder';

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder();

  it('gives identical texts similarity 1 and unit length', () => {
    const a = embedder.embedSync('Search the quarterly revenue of ACME for 2024');
    const b = embedder.embedSync('Search the quarterly revenue of ACME for 2024');
    expect(cosine(a, b)).toBeCloseTo(1, 5);
    expect(cosine(a, a)).toBeCloseTo(1, 5);
    expect(a.length).toBe(256);
  });

  it('ranks a paraphrase above an unrelated text', () => {
    const base = embedder.embedSync('latest quarterly revenue of ACME corporation');
    const paraphrase = embedder.embedSync('ACME corporation revenue, latest quarter');
    const unrelated = embedder.embedSync('install the python package and run the unit tests');
    expect(cosine(base, paraphrase)).toBeGreaterThan(cosine(base, unrelated) + 0.3);
  });

  it('segments CJK text into characters', () => {
    const a = embedder.embedSync('搜索最新的季度收入数据');
    const b = embedder.embedSync('搜索最新季度的收入数据');
    const c = embedder.embedSync('安装软件包并运行测试');
    expect(cosine(a, b)).toBeGreaterThan(0.6);
    expect(cosine(a, c)).toBeLessThan(0.3);
  });

  it('embeds the empty text as the zero vector with cosine 0', () => {
    const empty = embedder.embedSync('');
    expect(Array.from(empty).every((x) => x === 0)).toBe(true);
    const sim = cosine(empty, embedder.embedSync('anything'));
    expect(sim).toBe(0);
    expect(Number.isNaN(cosine(empty, empty))).toBe(false);
  });

  it('is deterministic across instances and honours the dimension', () => {
    const other = new HashingEmbedder({ dimension: 64 });
    expect(other.embedSync('hello world')).toEqual(new HashingEmbedder({ dimension: 64 }).embedSync('hello world'));
    expect(other.embedSync('hello world').length).toBe(64);
  });
});
