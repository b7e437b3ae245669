/** Legitimate work: a retry whose outcome changes (a flaky call that then succeeds) is no loop. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('retries whose outcomes change', () => {
  it('flags nothing when each retry of a deploy gets further than the last', () => {
    const s = steps();
    const outcomes = [
      () => s.fail('deploy', 'connection refused by registry.example.com'),
      () => s.fail('deploy', 'image pushed; rollout blocked: 2 of 5 pods pending scheduling'),
      () => s.ok('deploy', 'rollout complete: 5 of 5 pods ready, service healthy'),
    ];
    const events = outcomes.flatMap((outcome, i) => [s.act('deploy', { service: 'api', version: '1.4.2', attempt: i }), outcome()]);
    events.push(s.act('read_logs', { service: 'api', lines: 50 }), s.ok('read_logs', 'GET /health 200\nGET /users 200'));
    expect(runAll(engineFor(), events)).toEqual([]);
  });
});
