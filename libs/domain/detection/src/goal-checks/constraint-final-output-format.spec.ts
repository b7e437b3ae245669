// "最终输出必须为 JSON" / "Only output JSON": a final output that is not JSON is a violation; JSON is not.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

describe('constraint rules: the final output format', () => {
  it('flags a prose final output under "最终输出必须为 JSON" (ZH)', () => {
    const map = mapOf('提取商品信息。最终输出必须为 JSON。');
    const s = agentSteps();
    const out = run(goalEngine(map), [s.say('我先看看数据'), s.output('共有3个商品：杯子、碗、盘子。')]);
    expect(out.map((d) => [d.atSeq, d.level, d.evidence['rule'], d.evidence['constraint']])).toEqual([[1, 'critical', 'outputFormat', '最终输出必须为 JSON']]);
  });

  it('accepts a JSON final output, and ignores thoughts that are not the final output (ZH)', () => {
    const map = mapOf('提取商品信息。最终输出必须为 JSON。');
    const s = agentSteps();
    expect(run(goalEngine(map), [s.say('先读取文件'), s.output('[{"name": "杯子", "price": 3}]')])).toEqual([]);
  });

  it('checks the answer of a final_answer call (EN)', () => {
    const map = mapOf('Summarize the orders. Only output JSON.');
    const s = agentSteps();
    const bad = run(goalEngine(map), [s.act('final_answer', { answer: 'There are 3 orders.' })]);
    expect(bad.map((d) => d.evidence['rule'])).toEqual(['outputFormat']);
    const t = agentSteps('a2');
    expect(run(goalEngine(map), [t.act('final_answer', { answer: '{"orders": 3}' })])).toEqual([]);
  });
});
