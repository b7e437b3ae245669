/**
 * Which constraints rules cover, which fall back to the embedder (prohibitions with no rule), and which
 * are not checked (obligations with no rule); charter numbers follow hard constraints in order.
 */
import { compileConstraints, constraintCoverage } from './constraint-rules';

describe('constraint coverage', () => {
  it('numbers hard constraints and reports the rule / embedder / unchecked share (EN and ZH)', () => {
    const compiled = compileConstraints([
      { id: 'c1', text: 'Never call a delete API', hard: true },
      { id: 'c2', text: '禁止导出手机号', hard: true },
      { id: 'c3', text: 'Prefer recent sources', hard: false },
      { id: 'c4', text: '最终输出必须为 JSON', hard: true },
      { id: 'c5', text: 'Only use public sources', hard: true },
    ]);
    expect(compiled.map((c) => c.number)).toEqual([1, 2, 0, 3, 4]);
    expect(constraintCoverage(compiled)).toEqual({ rule: 2, embedder: 1, unchecked: 2 });
  });
});
