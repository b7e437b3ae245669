/**
 * The `openclaw` profile stays OpenClaw's loop guard exactly: the third identical call (P1's early stage)
 * is the project's, so under openclaw the same call with the same result is a generic_repeat warning at
 * the eleventh call and critical at the twenty-first, and nothing before.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('identical calls under the openclaw profile', () => {
  it('warns at the 11th identical call and goes critical at the 21st, nothing earlier', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 21; i++) events.push(s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', 'export const total = 0;'));
    const actions = events.filter((e) => e.kind === 'action');
    const out = runAll(engineFor({ profile: 'openclaw' }), events);
    expect(out.map((d) => [d.detector, d.level, d.count, d.atSeq])).toEqual([
      ['generic_repeat', 'warning', 10, actions[10].seq],
      ['generic_repeat', 'critical', 20, actions[20].seq],
    ]);
  });
});
