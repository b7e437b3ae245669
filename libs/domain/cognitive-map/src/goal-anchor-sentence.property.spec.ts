/**
 * Property: a goal sentence that carries its anchors with "at least" / "至少" (with or without an
 * obligation word) is never counted as a constraint, in English or Chinese; a prohibition next to it is
 * always counted, alone.
 */
import fc from 'fast-check';
import { parseGoal } from './goal-parser';

const enSubject = fc.constantFrom('Write a market report', 'Compile a list', 'Prepare a brief', 'Build a comparison');
const enObligation = fc.constantFrom('', 'must ', 'should ', 'always ');
const enUnit = fc.constantFrom('competitors', 'sources', 'vendors', 'customers', 'papers', 'charts');
const enBound = fc.constantFrom('at least', 'no fewer than', 'a minimum of');
const zhLead = fc.constantFrom('撰写一份市场报告，', '整理一份清单，', '');
const zhObligation = fc.constantFrom('', '必须', '需要', '务必');
const zhVerb = fc.constantFrom('覆盖', '引用', '收集', '对比');
const zhUnit = fc.constantFrom('个竞品', '个数据源', '家供应商', '篇论文');
const zhBound = fc.constantFrom('至少', '不少于');
const n = fc.integer({ min: 2, max: 500 });

describe('goal sentences with anchors are never constraints (property)', () => {
  it('English: "<subject> that [must] cover(s) at least N <unit>" has an anchor and no constraint', () => {
    fc.assert(
      fc.property(enSubject, enObligation, enBound, n, enUnit, (subject, must, bound, k, unit) => {
        const goal = `${subject} that ${must ? `${must}cover` : 'covers'} ${bound} ${k} ${unit}.`;
        const parsed = parseGoal(goal);
        expect(parsed.constraints).toEqual([]);
        expect(parsed.anchors.some((a) => a.target === k)).toBe(true);
      }),
      { numRuns: 200, seed: 18 },
    );
  });

  it('Chinese: "[必须]<verb>至少N<unit>" has an anchor and no constraint; a prohibition beside it is the only constraint', () => {
    fc.assert(
      fc.property(zhLead, zhObligation, zhVerb, zhBound, n, zhUnit, fc.boolean(), (lead, must, verb, bound, k, unit, withRule) => {
        const goal = `${lead}${must}${verb}${bound}${k}${unit}${withRule ? '，不得修改源文件' : ''}`;
        const parsed = parseGoal(goal);
        expect(parsed.constraints.map((c) => c.text)).toEqual(withRule ? ['不得修改源文件'] : []);
        expect(parsed.anchors.some((a) => a.target === k)).toBe(true);
      }),
      { numRuns: 200, seed: 18 },
    );
  });
});
