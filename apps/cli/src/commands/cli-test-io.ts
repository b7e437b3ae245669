/** In-memory stdout/stderr for tests of commands through `runCli`. */
import { Writable } from 'node:stream';
import type { CommandIo } from '../command';

export interface CapturedIo extends CommandIo {
  out(): string;
  err(): string;
}

export function captureIo(): CapturedIo {
  const chunks = { out: [] as string[], err: [] as string[] };
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(chunk.toString());
        done();
      },
    });
  return {
    stdout: sink(chunks.out),
    stderr: sink(chunks.err),
    out: () => chunks.out.join(''),
    err: () => chunks.err.join(''),
  };
}
