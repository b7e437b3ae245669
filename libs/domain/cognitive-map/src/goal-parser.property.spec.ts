/** Property tests: the parser is total (any unicode, any size) and its ids are stable. */
import fc from 'fast-check';
import { MAX_MILESTONES, Milestone, Anchor } from '@wayfinder/contracts';
import { parseGoal } from './goal-parser';

const goalText = fc.oneof(
  fc.fullUnicodeString({ maxLength: 400 }),
  fc.array(fc.constantFrom('1. ', '2) ', '步骤一：', '->', '→', '，然后', ' then ', '至少', '5个', '不得', 'must not ', '\n- ', '3000字', 'at least 7 ', '①', '(1)'), { maxLength: 60 }).map((parts) => parts.join('')),
  fc.tuple(fc.fullUnicodeString({ maxLength: 20 }), fc.integer({ min: 1, max: 5000 })).map(([s, n]) => s.repeat(n)),
  // Long runs of one character: the inputs on which a careless scanning regex goes quadratic.
  fc.tuple(fc.constantFrom(' ', '\n', '三', '1', ',', '。', '-', 'a '), fc.integer({ min: 1000, max: 20000 })).map(([c, n]) => c.repeat(n)),
);

describe('parseGoal properties', () => {
  it('never throws and always yields 1..7 schema-valid milestones with unique ids', () => {
    fc.assert(
      fc.property(goalText, (text) => {
        const parsed = parseGoal(text);
        expect(parsed.milestones.length).toBeGreaterThanOrEqual(1);
        expect(parsed.milestones.length).toBeLessThanOrEqual(MAX_MILESTONES);
        expect(new Set(parsed.milestones.map((m) => m.id)).size).toBe(parsed.milestones.length);
        for (const m of parsed.milestones) expect(Milestone.safeParse(m).success).toBe(true);
        for (const a of parsed.anchors) expect(Anchor.safeParse(a).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same ids for the same text', () => {
    fc.assert(
      fc.property(goalText, (text) => {
        const a = parseGoal(text);
        const b = parseGoal(text);
        expect(b.milestones.map((m) => m.id)).toEqual(a.milestones.map((m) => m.id));
        expect(b.anchors.map((x) => x.id)).toEqual(a.anchors.map((x) => x.id));
      }),
      { numRuns: 200 },
    );
  });

  it('handles a multi-megabyte goal', () => {
    const parsed = parseGoal('收集数据 -> 分析 -> '.repeat(200_000));
    expect(parsed.milestones).toHaveLength(MAX_MILESTONES);
  });

  it('keeps ids of a known goal fixed across releases', () => {
    // Checkpoints and memories are keyed on these ids: changing the id scheme is a breaking change.
    expect(parseGoal('读取数据源 -> 清洗字段 -> 交叉复核').milestones.map((m) => m.id)).toEqual(['m1-ytpwfm', 'm2-bsv4jt', 'm3-a1ek2b']);
    expect(parseGoal('Collect pricing pages -> compare plans').milestones[0].id).toBe('m1-collect-pricing-pages');
  });
});
