/** Legitimate work: a repeated `ls` / `pwd` between edits looks at a world the edits changed. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('a repeated ls and pwd between edits', () => {
  it('flags nothing when the same ls and pwd come back unchanged between successful edits', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 6; i++) {
      events.push(s.act('bash', { command: 'pwd' }), s.ok('bash', '/workspace/app'));
      events.push(s.act('list_dir', { path: '.' }), s.ok('list_dir', 'src\ntest\npackage.json\nREADME.md'));
      events.push(s.act('edit_file', { path: `src/module-${i}.ts`, find: 'var ', replace: 'const ' }), s.ok('edit_file', `edited src/module-${i}.ts`));
    }
    expect(runAll(engineFor(), events).filter((d) => d.detector !== 'stagnation')).toEqual([]);
  });

  it('flags the same ls repeated with nothing done in between', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 4; i++) events.push(s.act('list_dir', { path: '.' }), s.ok('list_dir', 'src\ntest\npackage.json\nREADME.md'));
    expect(runAll(engineFor(), events).some((d) => d.detector === 'near_duplicate_calls')).toBe(true);
  });
});
