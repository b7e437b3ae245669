// "Call the search tool at most 3 times" / "搜索工具最多调用3次": the fourth search is a violation; reads
// in between do not count.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

describe('constraint rules: a bound on the number of calls', () => {
  it('flags the 4th search, not reads (EN)', () => {
    const map = mapOf('Research Acme. Call the search tool at most 3 times.');
    const s = agentSteps();
    const steps = [s.act('web_search', { q: 'a' }), s.act('read_page', { url: 'u' }), s.act('web_search', { q: 'b' }), s.act('web_search', { q: 'c' }), s.act('read_page', { url: 'v' })];
    expect(run(goalEngine(map), steps)).toEqual([]);
    const more = goalEngine(map);
    const t = agentSteps();
    const out = run(more, [...[1, 2, 3, 4].map((i) => t.act('web_search', { q: `q${i}` }))]);
    expect(out.map((d) => [d.atSeq, d.evidence['rule']])).toEqual([[3, 'countBound']]);
  });

  it('flags the 4th search under a Chinese bound (ZH)', () => {
    const map = mapOf('调研这家公司，搜索工具最多调用3次');
    const s = agentSteps();
    const out = run(goalEngine(map), [1, 2, 3, 4].map((i) => s.act('search', { q: `查询${i}` })));
    expect(out.map((d) => [d.atSeq, d.evidence['constraint']])).toEqual([[3, '搜索工具最多调用3次']]);
  });
});
