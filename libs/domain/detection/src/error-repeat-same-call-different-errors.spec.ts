/** error_repeat (P10): the very same call failing again and again, whatever the errors say (OpenHands' action-error loop). */
import type { StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

const sameCall = (events: StepEvent[], profile?: 'openclaw') =>
  runAll(engineFor(profile ? { profile } : {}), events).filter((d) => d.detector === 'error_repeat' && d.evidence['sameCall'] === true);

describe('the same call failing with errors that differ', () => {
  it('warns at the third failure of the identical call, with a user message in between, and names the call', () => {
    const s = steps();
    const events: StepEvent[] = [];
    const errors = ['Command not found', 'Command still not found or another error', 'Different error', 'Command not found'];
    errors.forEach((error, i) => {
      if (i === 2) events.push({ ...s.say('Done'), kind: 'message', message: { role: 'user', text: 'Done' } } as StepEvent);
      events.push(s.act('execute_bash', { command: 'invalid_command' }), s.fail('execute_bash', error));
    });
    const out = sameCall(events);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ level: 'warning', count: 3, atSeq: 6, loopStartSeq: 0 });
    expect(out[0].evidence).toMatchObject({ tool: 'execute_bash', failures: 3, sameError: false });
    expect(out[0].message).toContain('failed 3 times in a row');
  });

  it('goes critical at the sixth failure in a row', () => {
    const s = steps();
    const events = Array.from({ length: 6 }, (_, i) => [s.act('run_tests', { target: 'api' }), s.fail('run_tests', `failure #${i}: assertion ${i * 7} != ${i * 3}`)]).flat();
    expect(sameCall(events).map((d) => [d.level, d.count, d.atSeq])).toEqual([
      ['warning', 3, 5],
      ['critical', 6, 11],
    ]);
  });

  it('stays quiet when the agent changes something between runs of the same command (an edit that succeeded)', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 4; i++) {
      events.push(s.act('execute_bash', { command: 'pytest -q' }), s.fail('execute_bash', `${4 - i} failed`));
      events.push(s.act('edit_file', { path: `src/mod${i}.py` }), s.ok('edit_file', 'edited'));
    }
    expect(sameCall(events)).toEqual([]);
  });

  it('stays quiet when a retry succeeds, when the errors are retryable, and in the openclaw profile', () => {
    const s = steps();
    const retried = [
      s.act('fetch', { url: 'https://api.example.com/a' }), s.fail('fetch', 'parse error at line 3'),
      s.act('fetch', { url: 'https://api.example.com/a' }), s.fail('fetch', 'parse error at line 9'),
      s.act('fetch', { url: 'https://api.example.com/a' }), s.ok('fetch', '{"ok":true}'),
    ];
    expect(sameCall(retried)).toEqual([]);
    const t = steps();
    const timeouts = Array.from({ length: 3 }, (_, i) => [t.act('fetch', { url: 'https://api.example.com/b' }), t.fail('fetch', `request timed out after ${30 + i}s`)]).flat();
    expect(sameCall(timeouts)).toEqual([]);
    const u = steps();
    const plain = Array.from({ length: 4 }, (_, i) => [u.act('execute_bash', { command: 'invalid_command' }), u.fail('execute_bash', `error ${['A', 'B', 'C', 'D'][i]}`)]).flat();
    expect(sameCall(plain, 'openclaw')).toEqual([]);
  });
});
