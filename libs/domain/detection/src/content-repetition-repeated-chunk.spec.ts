/** content_repetition: one assistant message that repeats a sentence over and over. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('a message repeating one chunk', () => {
  it('warns at three repeats of a sentence and goes critical at six, with a preview of the chunk', () => {
    const s = steps();
    const chunk = 'I will now check the configuration file for the database settings.';
    const events = [
      s.act('read_file', { path: 'config.yml' }),
      s.ok('read_file', 'db: postgres'),
      s.say(`Let me think. ${chunk} ${chunk} ${chunk}`),
      s.say(`${chunk}\n${chunk}\n${chunk}\n${chunk}\n${chunk}\n${chunk}`),
    ];
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'content_repetition');
    expect(out.map((d) => [d.level, d.count, d.atSeq])).toEqual([
      ['warning', 3, 2],
      ['critical', 6, 3],
    ]);
    expect(out[0].evidence.repeatedPreview).toBe(chunk);
  });
});
