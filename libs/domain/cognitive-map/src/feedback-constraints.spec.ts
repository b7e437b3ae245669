import { appendFeedbackConstraint } from './feedback';
import { parseTask } from './task-parser';
import { task } from './testing/step-builders';

const map = (() => {
  const r = parseTask(task('整理客户名单。禁止导出手机号。'));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();

describe('appendFeedbackConstraint', () => {
  it('appends a numbered constraint in a new map version and keeps the old numbers', () => {
    const next = appendFeedbackConstraint(map, '不要使用外部数据', { ts: '2026-01-02T00:00:00.000Z' });
    expect(next.version).toBe(map.version + 1);
    expect(next.eventId).toBe(`map:${map.taskId}:v2`);
    expect(next.ts).toBe('2026-01-02T00:00:00.000Z');
    expect(next.constraints.map((c) => [c.id, c.text, c.source])).toEqual([
      ['c1', '禁止导出手机号', 'goal'],
      ['c2', '不要使用外部数据', 'feedback'],
    ]);
    expect(map.constraints).toHaveLength(1);
  });

  it('numbers successive feedback after the previous one', () => {
    const twice = appendFeedbackConstraint(appendFeedbackConstraint(map, 'first note'), 'second note');
    expect(twice.version).toBe(3);
    expect(twice.constraints.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('returns the same map for feedback that repeats a constraint or is blank', () => {
    expect(appendFeedbackConstraint(map, '  禁止导出手机号。 ')).toBe(map);
    expect(appendFeedbackConstraint(map, '   ')).toBe(map);
  });
});
