// A constraint the user adds mid-task (a `feedback` step) is checked from then on, under the next number.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

describe('constraint rules: feedback added mid-task', () => {
  it('checks "Never delete any records" from the feedback on, as constraint 2 (EN)', () => {
    const map = mapOf('Tidy the CRM. Only output JSON.');
    const s = agentSteps();
    const engine = goalEngine(map);
    expect(run(engine, [s.act('delete_records', { ids: [1] })])).toEqual([]);
    const out = run(engine, [s.feedback('Never delete any records'), s.act('delete_records', { ids: [2] }), s.act('delete_file', { path: 'tmp.txt' })]);
    expect(out.map((d) => [d.atSeq, d.evidence['constraintId'], d.evidence['constraintNumber']])).toEqual([[2, 'c2', 2]]);
  });

  it('checks a Chinese feedback constraint on the final output (ZH)', () => {
    const engine = goalEngine(mapOf('整理订单'));
    const s = agentSteps();
    const out = run(engine, [s.feedback('输出必须为 Markdown 表格'), s.output('订单共3条')]);
    expect(out.map((d) => [d.evidence['constraintNumber'], d.evidence['rule']])).toEqual([[1, 'outputFormat']]);
  });
});
