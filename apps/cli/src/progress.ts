/**
 * Progress of a long operation (eval, replay of large folders, dlq replay) on a terminal: one line on
 * stderr, redrawn in place at most every 100 ms, cleared when done. When stderr is not a TTY (a pipe, a
 * file, CI) it writes nothing at all, so output that is read by programs stays exactly the same.
 */
export interface Progress {
  /** `n` more items done (default 1); `note` names the current one (a file, a trace). */
  tick(n?: number, note?: string): void;
  /** Clears the line (TTY); nothing else is written. */
  done(): void;
}

export interface ProgressStream {
  write(chunk: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressOptions {
  /** Items expected, when known: shows `done/total (pct%)`. */
  readonly total?: number;
  readonly now?: () => number;
  /** Least time between two redraws (ms, default 100). */
  readonly everyMs?: number;
}

const QUIET: Progress = { tick: () => undefined, done: () => undefined };

export function progressOn(stream: ProgressStream, label: string, options: ProgressOptions = {}): Progress {
  if (stream.isTTY !== true) return QUIET;
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 100;
  const total = options.total;
  let count = 0;
  let drawnAt = -Infinity;
  let drawn = false;
  const draw = (note?: string) => {
    const counted = total !== undefined && total > 0 ? `${count}/${total} (${Math.floor((100 * count) / total)}%)` : String(count);
    let line = `${label} ${counted}${note ? ` ${note}` : ''}`;
    const width = stream.columns ?? 80;
    if (line.length > width - 1) line = line.slice(0, Math.max(0, width - 2)) + '…';
    stream.write(`\r\x1b[2K${line}`);
    drawn = true;
  };
  return {
    tick(n = 1, note) {
      count += n;
      const t = now();
      if (t - drawnAt < everyMs && (total === undefined || count < total)) return;
      drawnAt = t;
      draw(note);
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
