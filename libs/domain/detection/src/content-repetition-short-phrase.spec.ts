/** content_repetition (P4, short phrases): a short phrase said over and over inside one answer. */
import { engineFor, runAll, steps } from './test-support/step-builder';

const judge = (text: string) => {
  const s = steps();
  return runAll(engineFor(), [s.act('read_file', { path: 'a.md' }), s.ok('read_file', 'x'), s.say(text)]).filter((d) => d.detector === 'content_repetition');
};

describe('a short phrase repeated inside one answer', () => {
  it('warns at five back-to-back repeats and goes critical at ten, naming the phrase', () => {
    const warn = judge('The build is red. I am sorry, I am sorry, I am sorry, I am sorry, I am sorry, and I will fix it.');
    expect(warn.map((d) => [d.level, d.count])).toEqual([['warning', 5]]);
    expect(warn[0].evidence).toMatchObject({ phrase: true });
    expect(String(warn[0].evidence['repeatedPreview']).toLowerCase()).toContain('sorry');
    const critical = judge(`The answer is 42. ${'Let me check. '.repeat(12)}`);
    expect(critical.map((d) => [d.level, d.count])).toEqual([['critical', 12]]);
  });

  it('stays quiet on emphasis, short interjections, lists, code and a phrase that comes back now and then', () => {
    expect(judge('This is very very important: the migration must run first. Ho ho ho, no no no, it is done.')).toEqual([]);
    expect(judge(['Steps:', '- retry', '- retry', '- retry', '- retry', '- retry', '- retry'].join('\n'))).toEqual([]);
    expect(judge(['```', 'ok ok ok ok ok ok ok ok', '```', 'The output above is fine.'].join('\n'))).toEqual([]);
    expect(judge('Let me check the logs. The API is up. Let me check the database. It is up too. Let me check the queue. Let me check the cache. All fine.')).toEqual([]);
  });
});
