/** Replays are reproducible: the same steps give the same deviations with the same eventIds. */
import { LOOP_FAMILY } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('deterministic replay', () => {
  it('gives identical deviations and eventIds on two engines', () => {
    const build = () => {
      const s = steps();
      const events = [];
      for (let i = 0; i < 12; i++) events.push(s.act('status', { job: 'j1' }), s.ok('status', 'pending'));
      return events;
    };
    const a = runAll(engineFor({ profile: 'openclaw', loop: { warning: 3, critical: 6 } }), build());
    const b = runAll(engineFor({ profile: 'openclaw', loop: { warning: 3, critical: 6 } }), build());
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
    expect(a[0]).toMatchObject({ schema: 'wayfinder.deviation.v1', eventId: 'r1-e6:known_poll_no_progress:warning', runId: 'r1', taskId: 'task1' });
    expect(a.every((d) => LOOP_FAMILY.includes(d.detector))).toBe(true);
  });

  it('applies a redelivered event once (same eventId, or a seq not above the last)', () => {
    const engine = engineFor({ profile: 'openclaw', loop: { warning: 2, critical: 4 } });
    const s = steps();
    const first = s.act('read', { path: '/x' });
    const events = [first, s.ok('read', 'x'), first, { ...first, eventId: 'other-id' }];
    expect(runAll(engine, events)).toEqual([]);
  });
});
