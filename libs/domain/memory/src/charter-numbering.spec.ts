// The charter: the goal in one sentence, hard constraints numbered, feedback appended under the next numbers.
import { appendFeedback, charterFromMap, createCharter, oneSentence, renderCharter } from './charter';

describe('the task charter', () => {
  it('keeps the goal to one sentence, in English and Chinese', () => {
    expect(oneSentence('Write a report on 5 competitors.  Use tables where useful. Then publish.')).toBe(
      'Write a report on 5 competitors.',
    );
    expect(oneSentence('调研5个竞争对手。然后写报告。')).toBe('调研5个竞争对手。');
    expect(oneSentence('  no full stop\n here ')).toBe('no full stop here');
  });

  it('takes only the hard constraints of a map, numbered in order', () => {
    const charter = charterFromMap({
      goal: 'Compare 5 vendors. Then write.',
      constraints: [
        { id: 'c1', text: 'Only output JSON', hard: true, source: 'goal' },
        { id: 'c2', text: 'Prefer short sentences', hard: false, source: 'goal' },
        { id: 'c3', text: 'Never email customers', hard: true, source: 'task' },
      ],
    });
    expect(charter.goal).toBe('Compare 5 vendors.');
    expect(charter.constraints.map((c) => [c.n, c.text])).toEqual([
      [1, 'Only output JSON'],
      [2, 'Never email customers'],
    ]);
  });

  it('appends user feedback under the next number, once', () => {
    let charter = createCharter('Compare vendors', [{ text: 'Only output JSON' }]);
    charter = appendFeedback(charter, 'Do not use Wikipedia as a source');
    charter = appendFeedback(charter, '  do not use wikipedia as a SOURCE ');
    charter = appendFeedback(charter, '不要使用付费数据');
    expect(charter.constraints.map((c) => [c.n, c.source])).toEqual([
      [1, 'task'],
      [2, 'feedback'],
      [3, 'feedback'],
    ]);
    const text = renderCharter(charter);
    expect(text).toContain('Goal: Compare vendors');
    expect(text).toContain('2. Do not use Wikipedia as a source (from user feedback)');
    expect(text).toContain('3. 不要使用付费数据');
  });
});
