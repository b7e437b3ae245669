/** error_repeat (P3): the same failure from commands that keep changing. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('the same failure from changing commands', () => {
  it('warns at the fourth failing call in a row of the tool, whatever the command', () => {
    const s = steps();
    const commands = ['pytest tests/test_api.py', 'python -m pytest tests', 'pytest -x tests/test_api.py::test_get', 'python3 -m pytest -q', 'pytest --maxfail=1'];
    const events = commands.flatMap((command) => [s.act('bash', { command }), s.fail('bash', `${command.split(' ')[0]}: ModuleNotFoundError: No module named 'fastapi'`)]);
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'error_repeat');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ level: 'warning', count: 4, atSeq: 8, loopStartSeq: 0 });
  });

  it('stays quiet when a success interrupts the failures', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 6; i++) {
      events.push(s.act('bash', { command: `pytest tests/test_${i}.py` }));
      events.push(i % 3 === 2 ? s.ok('bash', '3 passed') : s.fail('bash', `tests/test_${i}.py: 1 failed`));
    }
    expect(runAll(engineFor(), events).filter((d) => d.detector === 'error_repeat')).toEqual([]);
  });
});
