/** monologue (P6): messages that differ but bring no action. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('different messages with no action between them', () => {
  const texts = [
    'I should first look at how the invoices are stored before changing anything.',
    'Thinking about it more, the totals might be computed in the reporting service.',
    'Another option is that the currency conversion happens at export time.',
    'It could also be a rounding issue in the database view used by the report.',
    'Perhaps I should reconsider the whole approach to this bug.',
  ];

  it('warns at the fourth message in a row after the run has acted', () => {
    const s = steps();
    const events = [s.act('read_file', { path: 'README.md' }), s.ok('read_file', 'Billing service'), ...texts.map((t) => s.say(t))];
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'monologue');
    expect(out.map((d) => [d.level, d.count, d.atSeq, d.loopStartSeq])).toEqual([['warning', 4, 5, 2]]);
    expect(out[0].evidence).toMatchObject({ kind: 'no-action', lastMessagePreview: texts[3] });
  });

  it('lets an agent plan before its first action, and an action or a user message ends the run of messages', () => {
    const s = steps();
    const events = [
      ...texts.map((t) => s.say(t)),
      s.act('read_file', { path: 'README.md' }), s.ok('read_file', 'Billing service'),
      s.say(texts[0]), s.say(texts[1]), s.say(texts[2]),
      { ...s.say('Please focus on the export job.'), message: { role: 'user' as const, text: 'Please focus on the export job.' } },
      s.say(texts[3]), s.say(texts[4]),
    ];
    expect(runAll(engineFor(), events).filter((d) => d.detector === 'monologue')).toEqual([]);
  });
});
