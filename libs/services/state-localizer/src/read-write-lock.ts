/**
 * Shared and exclusive sections of one process (a readers–writer lock, writer-preferring). The state
 * localizer's batches run shared, side by side; the hold sweep and the release of a task's held steps run
 * exclusive, alone. Between routing a step ("hold: its agent has steps waiting") and writing it to the held
 * store, a batch must not see the held steps taken away: else the step stays held while the agent's later
 * steps pass it (issue #17's chaos run: an agent's steps 4, 5 published after 6–11, and the detector,
 * which skips a step at or below the last seq, lost a poll).
 */
export class ReadWriteLock {
  private readers = 0;
  /** Exclusive sections that hold the lock or wait for it: no shared section starts meanwhile. */
  private writersWaiting = 0;
  /** Resolves when the last exclusive section queued ends; they queue behind each other. */
  private writers: Promise<void> = Promise.resolve();
  private readersDone: (() => void) | null = null;

  /** Runs `section` beside other shared sections, once no exclusive one holds or waits for the lock. */
  async shared<T>(section: () => Promise<T>): Promise<T> {
    while (this.writersWaiting > 0) await this.writers;
    this.readers++;
    try {
      return await section();
    } finally {
      this.readers--;
      if (this.readers === 0) this.readersDone?.();
    }
  }

  /** Runs `section` alone: after the shared sections in progress end, before any new one starts. */
  async exclusive<T>(section: () => Promise<T>): Promise<T> {
    this.writersWaiting++;
    let release!: () => void;
    const before = this.writers;
    this.writers = new Promise<void>((resolve) => (release = resolve));
    try {
      await before;
      if (this.readers > 0) await new Promise<void>((resolve) => (this.readersDone = resolve));
      this.readersDone = null;
      return await section();
    } finally {
      this.writersWaiting--;
      release();
    }
  }
}
