/**
 * Writes JSON lines to a stream in batches, waiting for 'drain' when the stream pushes back, so a replay
 * piped into a slow consumer does not buffer its whole output in memory.
 */
import { once } from 'node:events';

const FLUSH_AT = 64 * 1024;

export class LineWriter {
  private buffer = '';
  private failure?: Error;

  constructor(private readonly stream: NodeJS.WritableStream) {
    // Without a listener a closed pipe (`replay … | head`) would crash the process with EPIPE.
    stream.on('error', (error: Error) => {
      this.failure ??= error;
    });
  }

  /** The stream's error (e.g. EPIPE when the reader went away); writing stops being useful then. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** Resolves at once unless the buffer was flushed into a stream that asked us to wait. */
  line(text: string): Promise<void> | undefined {
    this.buffer += text + '\n';
    return this.buffer.length >= FLUSH_AT ? this.flush() : undefined;
  }

  json(value: unknown): Promise<void> | undefined {
    return this.line(JSON.stringify(value));
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffer.length === 0) return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
}
