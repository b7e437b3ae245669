import { ReadWriteLock } from './read-write-lock';

/** A section that logs its start and end, and ends when the test says. */
function section(log: string[], name: string) {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return {
    run: async () => {
      log.push(`${name}+`);
      await ended;
      log.push(`${name}-`);
      return name;
    },
    end: () => end(),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadWriteLock', () => {
  it('runs shared sections side by side, an exclusive one alone, and later shared ones after it', async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const [r1, r2, w, r3] = ['r1', 'r2', 'w', 'r3'].map((n) => section(log, n));
    const done = [lock.shared(r1.run), lock.shared(r2.run), lock.exclusive(w.run), lock.shared(r3.run)];
    await settle();
    expect(log).toEqual(['r1+', 'r2+']);
    r1.end();
    await settle();
    expect(log).toEqual(['r1+', 'r2+', 'r1-']);
    r2.end();
    await settle();
    expect(log).toEqual(['r1+', 'r2+', 'r1-', 'r2-', 'w+']);
    w.end();
    await settle();
    expect(log).toEqual(['r1+', 'r2+', 'r1-', 'r2-', 'w+', 'w-', 'r3+']);
    r3.end();
    await expect(Promise.all(done)).resolves.toEqual(['r1', 'r2', 'w', 'r3']);
  });

  it('runs exclusive sections one after another, and goes on after one that failed', async () => {
    const lock = new ReadWriteLock();
    const log: string[] = [];
    const [w1, w2] = ['w1', 'w2'].map((n) => section(log, n));
    const failed = lock.exclusive(async () => {
      log.push('w0');
      throw new Error('w0 failed');
    });
    const done = [lock.exclusive(w1.run), lock.exclusive(w2.run)];
    await expect(failed).rejects.toThrow('w0 failed');
    await settle();
    expect(log).toEqual(['w0', 'w1+']);
    w1.end();
    await settle();
    expect(log).toEqual(['w0', 'w1+', 'w1-', 'w2+']);
    w2.end();
    await expect(Promise.all(done)).resolves.toEqual(['w1', 'w2']);
    await expect(lock.shared(async () => 'after')).resolves.toBe('after');
  });
});
