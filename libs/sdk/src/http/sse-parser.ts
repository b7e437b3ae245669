/**
 * A Server-Sent Events parser (the WHATWG event-stream format): feed it text chunks as they arrive,
 * it calls back once per complete event. Comments (`: keep-alive`) are skipped.
 */
export interface ServerSentEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export class SseParser {
  private pending = '';
  private id: string | undefined;
  private event = '';
  private data: string[] = [];

  constructor(private readonly onEvent: (event: ServerSentEvent) => void) {}

  feed(chunk: string): void {
    this.pending += chunk;
    let newline: number;
    while ((newline = this.nextLineEnd()) >= 0) {
      const line = this.pending.slice(0, newline);
      const skip = this.pending[newline] === '\r' && this.pending[newline + 1] === '\n' ? 2 : 1;
      this.pending = this.pending.slice(newline + skip);
      this.line(line);
    }
  }

  private nextLineEnd(): number {
    const lf = this.pending.indexOf('\n');
    const cr = this.pending.indexOf('\r');
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      return cr === this.pending.length - 1 ? -1 : cr;
    }
    return lf;
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onEvent({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\u0000')) this.id = value;
  }
}
