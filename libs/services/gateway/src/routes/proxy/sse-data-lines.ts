/**
 * The `data:` lines of a Server-Sent Events stream, fed bytes as they pass through the proxy: chunk
 * boundaries fall anywhere (inside a line, inside a UTF-8 character). Lines are split in linear time (a
 * line's pieces are kept and joined once at its newline); a line longer than the bound is dropped (counted
 * in `dropped`), never held whole. The assemblers of streamed answers read their events from here.
 */
export class SseDataLines {
  private readonly decoder = new TextDecoder();
  private pending: string[] = [];
  private pendingChars = 0;
  /** The pending line grew past the bound: dropped up to its newline. */
  private overlong = false;
  /** Lines longer than the bound, dropped. */
  dropped = 0;

  constructor(
    private readonly maxChars: number,
    private readonly onData: (data: string) => void,
  ) {}

  push(chunk: Uint8Array | string): void {
    const piece = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let start = 0;
    let end: number;
    while ((end = piece.indexOf('\n', start)) >= 0) {
      this.keep(piece.slice(start, end));
      this.flush();
      start = end + 1;
    }
    this.keep(piece.slice(start));
  }

  /** The stream ended: a last line without its newline counts too. */
  end(): void {
    if (this.overlong || this.pendingChars > 0) this.flush();
  }

  private flush(): void {
    const line = this.overlong ? undefined : this.pending.join('');
    if (this.overlong) this.dropped++;
    this.pending = [];
    this.pendingChars = 0;
    this.overlong = false;
    if (line === undefined) return;
    const clean = line.replace(/\r$/, '');
    if (!clean.startsWith('data:')) return; // comments, event:, id:, blank separators
    const data = clean.slice(5).trim();
    if (data !== '') this.onData(data);
  }

  private keep(part: string): void {
    if (this.overlong || part === '') return;
    if (this.pendingChars + part.length > this.maxChars) {
      this.overlong = true;
      this.pending = [];
      this.pendingChars = 0;
      return;
    }
    this.pending.push(part);
    this.pendingChars += part.length;
  }
}
