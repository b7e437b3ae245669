/**
 * Assembles a streamed chat completion (Server-Sent Events of `chat.completion.chunk`s) into the answer
 * it amounts to: the content deltas of the first choice joined, tool calls gathered by their `index`
 * (id and name from the first delta that has them, argument fragments concatenated), the finish reason
 * and the usage (sent in a last chunk with `stream_options.include_usage`). The proxy passes the bytes on
 * to the client as they come and feeds them here too: chunk boundaries fall anywhere, even inside a line
 * or a UTF-8 character, and a line that is not JSON is counted, never thrown. Lines are split in linear
 * time (a line's pieces are kept in a list and joined once at its newline); a line longer than the bound
 * is dropped from the answer (counted in `dropped`), and the text and arguments kept stop at the bound.
 */
import { usageOf, type ChatAnswer } from './chat-request';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Default bound on one pending line, and on the text and tool-call arguments kept (characters). */
export const DEFAULT_STREAM_KEEP_CHARS = 32 * 1024 * 1024;

export class ChatStreamAssembler {
  private readonly decoder = new TextDecoder();
  /** The pending line's pieces (no newline in any), joined once when its newline comes: linear in the line. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** The pending line grew past the bound: it is dropped (not derived) up to its newline. */
  private overlong = false;
  private text = '';
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();
  private finishReason?: string;
  private usage?: ChatAnswer['usage'];
  /** `data:` lines that were not JSON (reported by the caller, never thrown). */
  unreadable = 0;
  /** Lines longer than the bound, dropped from the answer (the caller passes them on to the client anyway). */
  dropped = 0;
  /** Whether content or arguments were cut at the bound (the answer's text is then a prefix). */
  truncated = false;
  /** Whether `data: [DONE]` came. */
  done = false;

  /** `maxChars`: the longest line kept, and the most text (and arguments) assembled; past it they are dropped. */
  constructor(private readonly maxChars = DEFAULT_STREAM_KEEP_CHARS) {}

  /** Characters held for the pending line (at most the bound). */
  get pendingLength(): number {
    return this.pendingChars;
  }

  /** Feeds bytes (or text) as they arrive. Each character is scanned once. */
  push(chunk: Uint8Array | string): void {
    const piece = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let start = 0;
    let end: number;
    while ((end = piece.indexOf('\n', start)) >= 0) {
      this.keep(piece.slice(start, end));
      const line = this.overlong ? undefined : this.pending.join('');
      if (this.overlong) this.dropped++;
      this.pending = [];
      this.pendingChars = 0;
      this.overlong = false;
      if (line !== undefined) this.line(line.replace(/\r$/, ''));
      start = end + 1;
    }
    this.keep(piece.slice(start));
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

  /** The answer so far (call at the end of the stream). */
  answer(): ChatAnswer {
    if (this.overlong) this.dropped++;
    else if (this.pendingChars > 0) this.line(this.pending.join('').replace(/\r$/, ''));
    this.pending = [];
    this.pendingChars = 0;
    this.overlong = false;
    return {
      text: this.text,
      toolCalls: [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => ({ ...c })),
      ...(this.finishReason !== undefined && { finishReason: this.finishReason }),
      ...(this.usage !== undefined && { usage: this.usage }),
    };
  }

  private line(line: string): void {
    if (!line.startsWith('data:')) return; // comments, event:, id:, blank separators
    const data = line.slice(5).trim();
    if (data === '') return;
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      this.unreadable++;
      return;
    }
    if (!isObject(chunk)) return;
    const usage = usageOf(chunk.usage).usage;
    if (usage) this.usage = usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      if (!isObject(choice) || (choice.index ?? 0) !== 0) continue;
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
      const delta = isObject(choice.delta) ? choice.delta : undefined;
      if (!delta) continue;
      if (typeof delta.content === 'string') this.text = this.capped(this.text, delta.content);
      if (!Array.isArray(delta.tool_calls)) continue;
      for (const part of delta.tool_calls) {
        if (!isObject(part)) continue;
        const index = typeof part.index === 'number' ? part.index : this.calls.size;
        let call = this.calls.get(index);
        if (!call) this.calls.set(index, (call = { name: '', arguments: '' }));
        if (typeof part.id === 'string' && call.id === undefined) call.id = part.id;
        const fn = isObject(part.function) ? part.function : {};
        // Names come once (OpenAI); some servers repeat the whole name in every delta.
        if (typeof fn.name === 'string' && fn.name !== call.name) call.name = this.capped(call.name, fn.name);
        if (typeof fn.arguments === 'string') call.arguments = this.capped(call.arguments, fn.arguments);
      }
    }
  }

  /** `kept + more`, cut at the bound (then `truncated`). */
  private capped(kept: string, more: string): string {
    if (kept.length + more.length <= this.maxChars) return kept + more;
    this.truncated = true;
    return kept + more.slice(0, Math.max(0, this.maxChars - kept.length));
  }
}
