/**
 * P6 (PROJECT-RULES.md) in the OpenHands SDK's shape: agent message events (`type: output`, an answer shown
 * to the user) with no action between them are a monologue from the run's first step — outputs are not
 * planning. A step with `attributes.afterUser` follows a user message the producer did not send as a step,
 * and starts the count over, as a user message step does. Twins: a chat answered turn by turn, and
 * planning (untyped or `thought` messages) before the first action.
 */
import type { Deviation, StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

const answers = ['First I will read the failing test.', 'The assertion compares totals in cents.', 'So the fix belongs in the rounding helper.', 'I should look at how rounding is done.', 'Rounding happens once, at the end.'];

function messages(type: 'output' | 'thought' | undefined, afterUser: (i: number) => boolean): StepEvent[] {
  const s = steps();
  return answers.map((text, i) => {
    const step = s.say(text) as Extract<StepEvent, { kind: 'message' }>;
    return { ...step, message: { ...step.message, ...(type && { type }) }, ...(afterUser(i) && { attributes: { afterUser: true } }) };
  });
}

const monologues = (out: Deviation[]) => out.filter((d) => d.detector === 'monologue').map((d) => [d.level, d.count, d.atSeq, d.loopStartSeq]);

describe('agent outputs with no action from the first step', () => {
  it('are a monologue at the fourth (balanced noActionWarning), its onset the first output', () => {
    expect(monologues(runAll(engineFor(), messages('output', (i) => i === 0)))).toEqual([['warning', 4, 3, 0]]);
  });

  it('after a user message left out of the steps (afterUser on the third), the count starts over there', () => {
    // Outputs 2–4 after the reply: three in a row, below the warning.
    expect(monologues(runAll(engineFor(), messages('output', (i) => i === 0 || i === 2)))).toEqual([]);
  });
});

describe('agent outputs: legitimate twins', () => {
  it('a chat answered turn by turn (every answer after a user message) is no monologue', () => {
    expect(monologues(runAll(engineFor(), messages('output', () => true)))).toEqual([]);
  });

  it('planning before the first action, untyped or as thoughts, is not counted', () => {
    expect(monologues(runAll(engineFor(), messages(undefined, () => false)))).toEqual([]);
    expect(monologues(runAll(engineFor(), messages('thought', () => false)))).toEqual([]);
  });
});
