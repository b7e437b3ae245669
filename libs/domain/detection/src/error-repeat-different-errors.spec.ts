/** error_repeat (P3): the same action failing with a different error each time. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('the same action failing with different errors', () => {
  it('warns at the fourth failure in a row and goes critical at the eighth', () => {
    const s = steps();
    const errors = ['permission denied (publickey)', 'remote rejected: protected branch', 'non-fast-forward update', 'pre-receive hook declined', 'pack exceeds maximum allowed size', 'repository not found', 'could not read Username', 'refusing to update checked out branch', 'failed to push some refs'];
    const events = errors.flatMap((error, i) => [s.act('git_push', { remote: 'origin', branch: `fix-${i}` }), s.fail('git_push', error)]);
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'error_repeat');
    expect(out.map((d) => [d.level, d.count, d.atSeq])).toEqual([
      ['warning', 4, 8],
      ['critical', 8, 16],
    ]);
  });
});
