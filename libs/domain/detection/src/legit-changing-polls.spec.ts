/** Legitimate work: polling a job whose output keeps changing is never flagged, with every detector on. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('polling whose output changes', () => {
  it('raises no deviation over 40 polls with the balanced profile', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 40; i++) {
      events.push(s.act('build_status', { job: 'build-7' }));
      events.push(s.ok('build_status', { state: 'running', progress: `${i * 2}%`, stage: `compiling module ${i} of 40`, log: `compiled src/module-${i}.ts` }));
    }
    const out = runAll(engineFor(), events);
    expect(out.filter((d) => d.detector !== 'stagnation')).toEqual([]);
  });
});
