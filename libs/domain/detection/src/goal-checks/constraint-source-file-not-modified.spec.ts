// "Do not modify the source file" / "不得修改源文件": writing a file the run read is a violation; reading
// it is not, nor is writing the run's own output.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

describe('constraint rules: the source file must not be modified', () => {
  it('flags overwriting the file the agent read (EN)', () => {
    const map = mapOf('Extract the invoices into result.json. Do not modify the source file.');
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('read_file', { path: 'data/invoices.csv' }), s.act('write_file', { path: 'data/invoices.csv', content: 'x' })]);
    expect(out.map((d) => [d.atSeq, d.level, d.evidence['rule'], d.evidence['constraintNumber']])).toEqual([[1, 'critical', 'protectedResource', 1]]);
  });

  it('does not flag reading the source file twice or writing result.json (EN)', () => {
    const map = mapOf('Extract the invoices into result.json. Do not modify the source file.');
    const s = agentSteps();
    const steps = [s.act('read_file', { path: 'data/invoices.csv' }), s.act('read_file', { path: 'data/invoices.csv' }), s.act('write_file', { path: 'result.json', content: '{}' }), s.act('write_file', { path: 'result.json', content: '{"a":1}' })];
    expect(run(goalEngine(map), steps)).toEqual([]);
  });

  it('flags saving over the input, not reading it (ZH)', () => {
    const map = mapOf('把商品信息提取到 result.json。不得修改源文件。');
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('open_file', { file: 'input/商品.json' }), s.act('save_file', { file: 'input/商品.json', text: '[]' })]);
    expect(out.map((d) => [d.atSeq, d.evidence['constraint']])).toEqual([[1, '不得修改源文件']]);
  });
});
