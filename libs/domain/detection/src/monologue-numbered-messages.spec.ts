/** monologue with numbers masked (P6, `monologue.ignoreNumbers`): the OpenHands SDK's monologue of agent messages. */
import type { StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

const user = (step: StepEvent, text: string): StepEvent => ({ ...step, kind: 'message', message: { role: 'user', text } }) as StepEvent;

describe('agent messages that differ only in their numbers', () => {
  it('are one message said again: a warning at the third with no action between (the SDK\'s shape: a user message, then agent messages)', () => {
    const s = steps();
    const events = [user(s.say(''), 'Hello'), ...[0, 1, 2].map((i) => s.say(`I'm thinking about this... ${i}`))];
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'monologue');
    expect(out.map((d) => [d.level, d.count, d.atSeq])).toEqual([['warning', 3, 3]]);
  });

  it('stay apart when the words differ, when an action comes between, and in openclaw with numbers compared', () => {
    const s = steps();
    const planning = [user(s.say(''), 'Hello'), s.say('Facts: the report covers 2023.'), s.say('Plan: read the 3 CSV files.'), s.say('Then sum 12 columns.')];
    expect(runAll(engineFor(), planning).filter((d) => d.detector === 'monologue')).toEqual([]);
    const t = steps();
    const acting = [0, 1, 2].flatMap((i) => [t.say(`Reading part ${i} of the log.`), t.act('read_file', { path: `log.${i}` }), t.ok('read_file', `part ${i}`)]);
    expect(runAll(engineFor(), acting).filter((d) => d.detector === 'monologue')).toEqual([]);
    const u = steps();
    const numbered = [0, 1, 2].map((i) => u.say(`Step ${i * 37}: computing ${i * 1000 + 7} rows.`));
    expect(runAll(engineFor({ profile: 'openclaw', monologue: { enabled: true, ignoreNumbers: false } }), numbered).filter((d) => d.detector === 'monologue')).toEqual([]);
  });
});
