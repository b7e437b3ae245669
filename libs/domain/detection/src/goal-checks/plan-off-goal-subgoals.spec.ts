// At a plan, every sub-goal must serve an anchor or milestone (terms first, embedder second); the ones
// that serve nothing are a warning naming them.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

describe('plan_off_goal', () => {
  const en = mapOf('Collect pricing for at least 5 competitors -> compare features -> write the market report');

  it('names the one sub-goal that serves no anchor or milestone (EN)', () => {
    const s = agentSteps();
    const out = run(goalEngine(en), [
      s.plan([
        { id: 's1', text: 'Collect the pricing pages of the competitors' },
        { id: 's2', text: 'Read that interesting article about the history of AI' },
        { id: 's3', text: 'Compare the features side by side' },
      ]),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ detector: 'plan_off_goal', level: 'warning', count: 1 });
    expect(out[0].evidence['offGoal']).toEqual([{ id: 's2', text: 'Read that interesting article about the history of AI' }]);
    expect(out[0].evidence['subgoals']).toBe(3);
    expect(out[0].message).toContain('s2');
  });

  it('says nothing when every sub-goal maps, by terms or by a named anchor (EN)', () => {
    const s = agentSteps();
    const anchorId = en.anchors[0].id;
    expect(run(goalEngine(en), [s.plan([{ id: 's1', text: 'Gather prices from vendor sites' }, { id: 's2', text: 'Draft sections', anchors: [anchorId] }, { id: 's3', text: 'Write the market report' }])])).toEqual([]);
  });

  const zh = mapOf('收集至少5个竞品的价格 -> 对比功能 -> 撰写市场分析报告');

  it('names the sub-goal off the goal (ZH)', () => {
    const s = agentSteps();
    const out = run(goalEngine(zh), [s.plan([{ id: 'p1', text: '收集竞品价格' }, { id: 'p2', text: '看看人工智能发展史的有趣文章' }, { id: 'p3', text: '对比各家功能' }])]);
    expect(out.map((d) => (d.evidence['offGoal'] as Array<{ id: string }>).map((x) => x.id))).toEqual([['p2']]);
  });

  it('says nothing when every sub-goal maps (ZH), or when there is no map', () => {
    const s = agentSteps();
    expect(run(goalEngine(zh), [s.plan([{ id: 'p1', text: '整理竞品价格表' }, { id: 'p2', text: '对比功能差异' }, { id: 'p3', text: '撰写市场分析报告' }])])).toEqual([]);
    const t = agentSteps('a2');
    expect(run(goalEngine(undefined), [t.plan([{ id: 'x', text: 'Read that interesting article' }])])).toEqual([]);
  });
});
