// A rejection nobody awaited is logged and the service keeps running; an uncaught exception stops it
// cleanly with exit code 1 (installProcessHandlers, used by `wayfinder start` and each service's main).
import { installProcessHandlers } from './serve';

describe('process-level handlers', () => {
  it('log an unhandled rejection and keep the service alive; stop it on an uncaught exception', () => {
    const lines: string[] = [];
    const stops: number[] = [];
    const uninstall = installProcessHandlers((l) => void lines.push(l), (code) => void stops.push(code));
    try {
      const listeners = process.listeners('unhandledRejection');
      const ours = listeners[listeners.length - 1] as (reason: unknown, p: Promise<unknown>) => void;
      ours(new Error('late callback of a client'), Promise.resolve());
      expect(lines).toEqual([expect.stringContaining('unhandled rejection (kept running): Error: late callback of a client')]);
      expect(stops).toEqual([]);
      const onException = process.listeners('uncaughtException').at(-1) as (error: Error) => void;
      onException(new Error('state unknown'));
      expect(stops).toEqual([1]);
      expect(lines[1]).toContain('uncaught exception, stopping: Error: state unknown');
    } finally {
      uninstall();
    }
  });
});
