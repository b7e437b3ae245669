/**
 * Anthropic's Messages API as the LLM proxy reads it (DESIGN §12): a request's `system` and `messages`
 * become the conversation the chat completions proxy tracks (`ChatMessage`s), so the same tracker and
 * step derivation serve both: `system` (a string or text blocks) a system message; an assistant message's
 * text blocks its content and its `tool_use` blocks its tool calls (the input as JSON text); a user
 * message's `tool_result` blocks tool messages (their `is_error` kept), its other blocks a user message.
 * Each message translates on its own, so a longer history translates to a longer list with the same
 * beginning (what the tracker's fingerprint needs). An answer (a `message`, or its stream of events) is
 * read into a `ChatAnswer`. A hint goes into `system`: appended to the string, or as a last text block
 * (after any cached blocks, so the prompt cache still holds). Errors take Anthropic's shape (api-error.ts).
 */
import { contentText, type ChatAnswer, type ChatMessage, type ChatStep, type ChatToolCall } from '@wayfinder/ingest';
import type { StreamAssembler } from './proxy-exchange';
import { isObject, type DialectReadResult } from './dialect-request';
import { SseDataLines } from './sse-data-lines';

/** Checks what the proxy relies on, naming the field it stops at; everything else is the upstream's. */
export function readMessagesRequest(body: unknown): DialectReadResult {
  if (!isObject(body)) return { ok: false, error: 'the body must be a JSON object (a Messages API request)', field: '(root)' };
  const { messages, system, stream, metadata } = body;
  if (!Array.isArray(messages) || messages.length === 0) return { ok: false, error: 'messages must be a non-empty array of messages', field: 'messages' };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as unknown;
    if (!isObject(m)) return { ok: false, error: `messages[${i}] must be an object`, field: `messages[${i}]` };
    if (m.role !== 'user' && m.role !== 'assistant') return { ok: false, error: `messages[${i}].role must be "user" or "assistant"`, field: `messages[${i}].role` };
    const blocks = blocksProblem(m.content, `messages[${i}].content`);
    if (blocks) return blocks;
  }
  if (system !== undefined && system !== null) {
    const blocks = blocksProblem(system, 'system');
    if (blocks) return blocks;
  }
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return { ok: false, error: 'stream must be a boolean', field: 'stream' };
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) return { ok: false, error: 'metadata must be an object', field: 'metadata' };
  const user = isObject(metadata) ? metadata.user_id : undefined;
  if (user !== undefined && user !== null && typeof user !== 'string') return { ok: false, error: 'metadata.user_id must be a string', field: 'metadata.user_id' };
  return {
    ok: true,
    value: { messages: conversationOf(system, messages as Array<Record<string, unknown>>), stream: stream === true, ...(typeof user === 'string' && user !== '' && { user: agentOfUserId(user) }), body },
  };
}

const SESSION = /session[_\s"':=]*([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/**
 * The agent a `metadata.user_id` names: Claude Code's (`user_<hash>_account_<uuid>_session_<uuid>`, past the
 * 128 characters of an id) is its session id, the agent its hooks report as; another id as it is.
 */
export function agentOfUserId(userId: string): string {
  return SESSION.exec(userId)?.[1]?.toLowerCase() ?? userId;
}

function blocksProblem(content: unknown, field: string): { ok: false; error: string; field: string } | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return { ok: false, error: `${field} must be a string or an array of content blocks`, field };
  for (let j = 0; j < content.length; j++) {
    const block = content[j] as unknown;
    if (!isObject(block) || typeof block.type !== 'string') return { ok: false, error: `${field}[${j}] must be a content block with a type`, field: `${field}[${j}]` };
  }
  return undefined;
}

/** `system` and `messages` as the chat conversation the tracker and the step derivation read. */
export function conversationOf(system: unknown, messages: ReadonlyArray<Record<string, unknown>>): ChatMessage[] {
  return translateConversation(system, messages).messages;
}

/** The conversation, and for each of its messages the index in `messages` it came from (-1: `system`). */
function translateConversation(system: unknown, messages: ReadonlyArray<Record<string, unknown>>): { messages: ChatMessage[]; origins: number[] } {
  const out: ChatMessage[] = [];
  const origins: number[] = [];
  const systemText = contentText(system);
  if (systemText !== '') {
    out.push({ role: 'system', content: systemText });
    origins.push(-1);
  }
  messages.forEach((m, index) => {
    const from = out.length;
    translateMessage(m, out);
    for (let i = from; i < out.length; i++) origins.push(index);
  });
  return { messages: out, origins };
}

function translateMessage(m: Record<string, unknown>, out: ChatMessage[]): void {
  if (typeof m.content === 'string') {
    out.push({ role: m.role as string, content: m.content });
    return;
  }
  const blocks = (Array.isArray(m.content) ? m.content : []).filter(isObject);
  if (m.role === 'assistant') {
    const text = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
    const calls: ChatToolCall[] = blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ ...(typeof b.id === 'string' && { id: b.id }), type: 'function', function: { name: typeof b.name === 'string' ? b.name : '', arguments: b.input === undefined ? '' : JSON.stringify(b.input) } }));
    out.push({ role: 'assistant', content: text.join('\n'), ...(calls.length > 0 && { tool_calls: calls }) });
    return;
  }
  // A user turn: its tool results first (the API requires them first), then what the user said.
  const rest: Array<Record<string, unknown>> = [];
  for (const b of blocks) {
    if (b.type !== 'tool_result') {
      rest.push(b);
      continue;
    }
    out.push({ role: 'tool', ...(typeof b.tool_use_id === 'string' && { tool_call_id: b.tool_use_id }), content: contentText(b.content), ...(b.is_error === true && { is_error: true }) });
  }
  if (rest.length > 0 || blocks.length === 0) out.push({ role: 'user', content: rest });
}

/**
 * The request's body without the `messages` that conversation messages at `removed` came from (a
 * rollback, proxy-rollback.ts): a message goes whole, so a turn's tool results go with its text.
 */
export function withoutConversationMessages(body: Record<string, unknown>, removed: ReadonlySet<number>): Record<string, unknown> {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Array<Record<string, unknown>>;
  const { origins } = translateConversation(body.system, messages);
  const gone = new Set<number>();
  for (const index of removed) if ((origins[index] ?? -1) >= 0) gone.add(origins[index]);
  return { ...body, messages: messages.filter((_, j) => !gone.has(j)) };
}

/** A tool result marked `is_error` is a failed observation, whatever its text says. */
export function markFailedResults(messages: readonly ChatMessage[], steps: ChatStep[]): void {
  const failed = new Set<string>();
  for (const m of messages) if (m.role === 'tool' && m.is_error === true && typeof m.tool_call_id === 'string') failed.add(m.tool_call_id.slice(0, 128));
  if (failed.size === 0) return;
  for (const step of steps) {
    if (step.kind !== 'observation' || step.observation.callId === undefined || !failed.has(step.observation.callId)) continue;
    const text = typeof step.observation.content === 'string' ? step.observation.content : '';
    step.observation = { ...step.observation, ok: false, error: (text || 'the tool reported an error').slice(0, 4096) };
  }
}

/** The request's body with `text` added to its system prompt: after the string, or as a last text block. */
export function withSystemGuidance(body: Record<string, unknown>, text: string): Record<string, unknown> {
  const { system } = body;
  if (Array.isArray(system)) return { ...body, system: [...(system as unknown[]), { type: 'text', text }] };
  if (typeof system === 'string' && system !== '') return { ...body, system: `${system}\n\n${text}` };
  return { ...body, system: text };
}

/** The answer of a whole `message` response, or undefined when it is none. */
export function answerOfMessage(response: unknown): ChatAnswer | undefined {
  if (!isObject(response) || !Array.isArray(response.content)) return undefined;
  const blocks = response.content.filter(isObject);
  return {
    text: blocks
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('\n'),
    toolCalls: blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ ...(typeof b.id === 'string' && { id: b.id }), name: typeof b.name === 'string' ? b.name : '', arguments: b.input === undefined ? '' : JSON.stringify(b.input) })),
    ...(typeof response.stop_reason === 'string' && { finishReason: response.stop_reason }),
    ...usageOf(response.usage),
  };
}

/** Anthropic's usage: the prompt's tokens counted with the cached ones (as OpenAI's `prompt_tokens` are). */
function usageOf(usage: unknown, into: ChatAnswer['usage'] = undefined): { usage?: ChatAnswer['usage'] } {
  if (!isObject(usage)) return into ? { usage: into } : {};
  const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  const parts = [usage.input_tokens, usage.cache_read_input_tokens, usage.cache_creation_input_tokens].map(count).filter((n): n is number => n !== undefined);
  const inputTokens = parts.length > 0 ? parts.reduce((a, b) => a + b, 0) : into?.inputTokens;
  const outputTokens = count(usage.output_tokens) ?? into?.outputTokens;
  if (inputTokens === undefined && outputTokens === undefined) return {};
  return { usage: { ...(inputTokens !== undefined && { inputTokens }), ...(outputTokens !== undefined && { outputTokens }) } };
}

/**
 * A streamed message (`message_start`, `content_block_start`/`_delta`/`_stop`, `message_delta`,
 * `message_stop`) assembled into its answer: text blocks from their `text_delta`s, tool uses from their
 * start (id, name) and their `input_json_delta` fragments, the stop reason and the usage of the start and
 * the last delta. Kept text and arguments stop at the bound (`truncated`).
 */
export class MessagesStreamAssembler implements StreamAssembler {
  private readonly lines: SseDataLines;
  private readonly blocks = new Map<number, { kind: 'text' | 'tool'; id?: string; name: string; text: string; startInput?: unknown }>();
  private kept = 0;
  private finishReason?: string;
  private usage?: ChatAnswer['usage'];
  unreadable = 0;
  truncated = false;

  constructor(private readonly maxChars: number) {
    this.lines = new SseDataLines(maxChars, (data) => this.event(data));
  }

  get dropped(): number {
    return this.lines.dropped;
  }

  push(chunk: Uint8Array | string): void {
    this.lines.push(chunk);
  }

  answer(): ChatAnswer {
    this.lines.end();
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b);
    return {
      text: ordered
        .filter((b) => b.kind === 'text')
        .map((b) => b.text)
        .join('\n'),
      toolCalls: ordered
        .filter((b) => b.kind === 'tool')
        .map((b) => ({ ...(b.id !== undefined && { id: b.id }), name: b.name, arguments: b.text !== '' ? b.text : b.startInput !== undefined && !(isObject(b.startInput) && Object.keys(b.startInput).length === 0) ? JSON.stringify(b.startInput) : '' })),
      ...(this.finishReason !== undefined && { finishReason: this.finishReason }),
      ...(this.usage !== undefined && { usage: this.usage }),
    };
  }

  private event(data: string): void {
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      this.unreadable++;
      return;
    }
    if (!isObject(event)) return;
    switch (event.type) {
      case 'message_start':
        if (isObject(event.message)) this.usage = usageOf(event.message.usage, this.usage).usage;
        return;
      case 'content_block_start': {
        const block = isObject(event.content_block) ? event.content_block : undefined;
        if (typeof event.index !== 'number' || !block) return;
        if (block.type === 'text') this.blocks.set(event.index, { kind: 'text', name: '', text: this.capped('', typeof block.text === 'string' ? block.text : '') });
        else if (block.type === 'tool_use') this.blocks.set(event.index, { kind: 'tool', ...(typeof block.id === 'string' && { id: block.id }), name: typeof block.name === 'string' ? block.name.slice(0, 1024) : '', text: '', startInput: block.input });
        return;
      }
      case 'content_block_delta': {
        const delta = isObject(event.delta) ? event.delta : undefined;
        const block = typeof event.index === 'number' ? this.blocks.get(event.index) : undefined;
        if (!delta || !block) return;
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && block.kind === 'text') block.text = this.capped(block.text, delta.text);
        else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string' && block.kind === 'tool') block.text = this.capped(block.text, delta.partial_json);
        return;
      }
      case 'message_delta':
        if (isObject(event.delta) && typeof event.delta.stop_reason === 'string') this.finishReason = event.delta.stop_reason;
        this.usage = usageOf(event.usage, this.usage).usage;
        return;
      default:
        return; // content_block_stop, message_stop, ping, error
    }
  }

  /** `kept + more`, the answer's total cut at the bound (then `truncated`). */
  private capped(kept: string, more: string): string {
    const room = Math.max(0, this.maxChars - this.kept);
    if (more.length <= room) {
      this.kept += more.length;
      return kept + more;
    }
    this.truncated = true;
    this.kept += room;
    return kept + more.slice(0, room);
  }
}
