/** P12: an agent that has handed in its answer and then restates it is done, not looping. */
import type { StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

const LOOPS = ['monologue', 'semantic_repetition', 'near_duplicate_calls', 'generic_repeat', 'cycle_repeat'];
const loops = (events: StepEvent[]) => runAll(engineFor(), events).filter((d) => LOOPS.includes(d.detector));

describe('restating a handed-in answer', () => {
  it('is not a monologue or a repetition after final_answer, nor a loop when finish is called again', () => {
    const s = steps();
    const restated = [s.act('search', { q: 'population of Lyon' }), s.ok('search', '522,250 (2021)'), s.act('final_answer', { answer: '522,250' }), s.ok('final_answer', '522,250')];
    for (let i = 0; i < 6; i++) restated.push(s.say('The final answer is 522,250.'));
    expect(loops(restated)).toEqual([]);

    const t = steps();
    const finished = [t.act('execute_bash', { command: 'pytest' }), t.ok('execute_bash', '12 passed')];
    for (let i = 0; i < 4; i++) finished.push(t.act('finish', { message: 'All tests pass; the fix is in src/api.py.' }), t.ok('finish', 'ok'));
    expect(loops(finished)).toEqual([]);
  });

  it('remembers the hand-in across an export and import of the agent state', () => {
    const s = steps();
    const engine = engineFor();
    const before = [s.act('search', { q: 'population of Lyon' }), s.ok('search', '522,250 (2021)'), s.act('finish', { message: '522,250' }), s.ok('finish', 'ok')];
    runAll(engine, before);
    const restored = engineFor();
    restored.importAgentState('t1', 'a1', engine.exportAgentState('t1', 'a1') as Uint8Array);
    const after = [0, 1, 2, 3, 4].map(() => s.say('The final answer is 522,250.'));
    expect(runAll(restored, after).filter((d) => LOOPS.includes(d.detector))).toEqual([]);
  });

  it('still flags the same messages when no answer was handed in, or once the agent went back to work', () => {
    const s = steps();
    const never = [s.act('search', { q: 'population of Lyon' }), s.ok('search', '522,250 (2021)')];
    for (let i = 0; i < 6; i++) never.push(s.say('The final answer is 522,250.'));
    expect(loops(never).map((d) => d.detector)).toContain('monologue');

    const t = steps();
    const backToWork = [t.act('final_answer', { answer: 'draft' }), t.ok('final_answer', 'draft'), t.act('search', { q: 'population of Lyon 2022' }), t.ok('search', 'no data')];
    for (let i = 0; i < 4; i++) backToWork.push(t.say('I am still not sure about the figure.'));
    expect(loops(backToWork).map((d) => [d.detector, d.level, d.count])).toContainEqual(['monologue', 'warning', 3]);
  });
});
