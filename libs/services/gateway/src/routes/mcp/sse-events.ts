/**
 * The events of a Server-Sent Events stream passing through the MCP door, fed bytes as they come (chunk
 * boundaries anywhere, inside a line or a UTF-8 character): each complete event comes out whole with its
 * JSON-RPC message (`data:` lines joined, parsed), so the door can recognize the response to a tool call
 * and rewrite that one event; everything else goes out as it came. An event longer than the bound is
 * passed on in pieces without being read (counted in `unread`), never held whole.
 */
export type SsePiece = { text: string } | { text: string; message: unknown; rewrite(message: unknown): string };

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/;

export class SseEvents {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  /** Inside an event past the bound: passed on raw until its end. */
  private overlong = false;
  unread = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: Uint8Array): SsePiece[] {
    return this.take(this.decoder.decode(chunk, { stream: true }));
  }

  /** What is left when the stream ends (an unterminated last event, passed on as it came). */
  end(): SsePiece[] {
    const rest = this.buffer + this.decoder.decode();
    this.buffer = '';
    return rest === '' ? [] : [{ text: rest }];
  }

  private take(piece: string): SsePiece[] {
    const out: SsePiece[] = [];
    // Search only the new text (and the 3 characters before it a boundary may start in): linear in the stream.
    let from = Math.max(0, this.buffer.length - 3);
    this.buffer += piece;
    for (;;) {
      const match = BOUNDARY.exec(this.buffer.slice(from));
      if (!match) break;
      const end = from + match.index + match[0].length;
      const event = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end);
      from = 0;
      if (this.overlong) {
        this.overlong = false;
        out.push({ text: event });
      } else {
        out.push(readEvent(event));
      }
    }
    if (this.buffer.length > this.maxChars) {
      if (!this.overlong) this.unread++;
      this.overlong = true;
      out.push({ text: this.buffer });
      this.buffer = '';
    }
    return out;
  }
}

/** An event with its data read as JSON; one whose data is not JSON is passed on as text only. */
function readEvent(event: string): SsePiece {
  const lines = event.split(/\r\n|\n|\r/);
  const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(l.startsWith('data: ') ? 6 : 5));
  if (data.length === 0) return { text: event };
  let message: unknown;
  try {
    message = JSON.parse(data.join('\n'));
  } catch {
    return { text: event };
  }
  const others = lines.filter((l) => l !== '' && !l.startsWith('data:'));
  return { text: event, message, rewrite: (next) => `${[...others, `data: ${JSON.stringify(next)}`].join('\n')}\n\n` };
}
