/**
 * A sentence that states the goal's quantities ("covers at least 5 competitors", "至少覆盖5个竞品") is the
 * goal's anchor, not a constraint; a constraint is a prohibition or an obligation about how the work is
 * done, and it stays one even beside an anchor.
 */
import { parseGoal } from './goal-parser';

const texts = (goal: string) => parseGoal(goal).constraints.map((c) => c.text);
const anchors = (goal: string) => parseGoal(goal).anchors.map((a) => [a.target, a.unit, a.comparator]);

describe('goal sentences carrying anchors are not constraints', () => {
  it.each([
    ['Write a market report that covers at least 5 competitors', [5, 'competitors', 'atLeast']],
    ['Write a market report that must cover at least 5 competitors.', [5, 'competitors', 'atLeast']],
    ['You must cite at least 10 sources.', [10, 'sources', 'atLeast']],
    ['Always include at least 3 charts', [3, 'charts', 'atLeast']],
    ['报告必须覆盖至少5个竞品', [5, '竞品', 'atLeast']],
    ['必须引用不少于10个数据源', [10, '数据源', 'atLeast']],
    ['生成一份至少覆盖8款模型的调研报告', [8, '模型', 'atLeast']],
  ])('%s → an anchor, no constraint', (goal, anchor) => {
    expect(texts(goal)).toEqual([]);
    expect(anchors(goal)).toContainEqual(anchor);
  });

  it('keeps the anchor sentence in the milestone it describes', () => {
    expect(parseGoal('Write a report. You must cite at least 10 sources.').milestones[0].description).toBe('Write a report. You must cite at least 10 sources');
  });
});

describe('constraints beside anchors are still constraints', () => {
  it('keeps a prohibition in the same goal as an anchor (EN)', () => {
    expect(texts('Write a market report that covers at least 5 competitors. Never invent numbers.')).toEqual(['Never invent numbers']);
  });

  it('keeps an obligation about how the work is done (ZH), split from the anchor clause', () => {
    expect(texts('报告至少覆盖5个竞品，只使用公开数据')).toEqual(['只使用公开数据']);
  });

  it('keeps a year qualifier on counted items (EN)', () => {
    expect(texts('Find at least 5 papers published after 2023')).toEqual(['Find at least 5 papers published after 2023']);
  });

  it('keeps a prohibition that carries a number, with the right bound (ZH)', () => {
    expect(texts('写一篇行业报告，不得超过3000字')).toEqual(['不得超过3000字']);
    expect(anchors('写一篇行业报告，不得超过3000字')).toEqual([[3000, '字', 'atMost']]);
  });

  it('counts a bound on the work itself as a constraint, not an anchor (EN and ZH)', () => {
    expect(texts('Research the topic. Call the search tool at most 5 times.')).toEqual(['Call the search tool at most 5 times']);
    expect(texts('调研这个主题，搜索工具最多调用5次')).toEqual(['搜索工具最多调用5次']);
    expect(anchors('调研这个主题，搜索工具最多调用5次')).toEqual([]);
  });
});
