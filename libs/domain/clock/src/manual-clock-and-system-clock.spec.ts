// The Clock port's two adapters: the manual clock moves only when told; the system clock reads the machine's time.
import { ManualClock, systemClock, type Clock } from './clock';

describe('clocks', () => {
  it('a manual clock moves only when advanced or set, and its now can be passed on unbound', () => {
    const clock = new ManualClock(1_000);
    const now = clock.now;
    expect(now()).toBe(1_000);
    clock.advance(250);
    expect(now()).toBe(1_250);
    clock.set(5);
    expect(clock.now()).toBe(5);
  });

  it('the system clock reads the machine time, also unbound', () => {
    const now: Clock['now'] = systemClock.now;
    const before = Date.now();
    const read = now();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
  });
});
