/**
 * Assembles a streamed chat completion (Server-Sent Events of `chat.completion.chunk`s) into the answer
 * it amounts to: the content deltas of the first choice joined, tool calls gathered by their `index`
 * (id and name from the first delta that has them, argument fragments concatenated), the finish reason
 * and the usage (sent in a last chunk with `stream_options.include_usage`). The proxy passes the bytes on
 * to the client as they come and feeds them here too: chunk boundaries fall anywhere, even inside a line
 * or a UTF-8 character, and a line that is not JSON is counted, never thrown.
 */
import { usageOf, type ChatAnswer } from './chat-request';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class ChatStreamAssembler {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private text = '';
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();
  private finishReason?: string;
  private usage?: ChatAnswer['usage'];
  /** `data:` lines that were not JSON (reported by the caller, never thrown). */
  unreadable = 0;
  /** Whether `data: [DONE]` came. */
  done = false;

  /** Feeds bytes (or text) as they arrive. */
  push(chunk: Uint8Array | string): void {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      this.line(line);
    }
  }

  /** The answer so far (call at the end of the stream). */
  answer(): ChatAnswer {
    if (this.buffer !== '') {
      const rest = this.buffer;
      this.buffer = '';
      this.line(rest.replace(/\r$/, ''));
    }
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
      if (typeof delta.content === 'string') this.text += delta.content;
      if (!Array.isArray(delta.tool_calls)) continue;
      for (const part of delta.tool_calls) {
        if (!isObject(part)) continue;
        const index = typeof part.index === 'number' ? part.index : this.calls.size;
        let call = this.calls.get(index);
        if (!call) this.calls.set(index, (call = { name: '', arguments: '' }));
        if (typeof part.id === 'string' && call.id === undefined) call.id = part.id;
        const fn = isObject(part.function) ? part.function : {};
        // Names come once (OpenAI); some servers repeat the whole name in every delta.
        if (typeof fn.name === 'string' && fn.name !== call.name) call.name += fn.name;
        if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
      }
    }
  }
}
