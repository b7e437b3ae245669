/**
 * OpenAI's Responses API as the LLM proxy reads it (DESIGN §12): a request's `instructions` and `input`
 * become the conversation the chat completions proxy tracks (`ChatMessage`s), so one tracker and one step
 * derivation serve every dialect: `instructions` a system message; `input` a user message when it is a
 * string, else its items in order: a message item a message of its role; a run of assistant output
 * items (assistant messages and `function_call`s, reasoning between them skipped) one assistant message
 * with those calls, as one answer made them; a `function_call_output` a tool message. An answer (a
 * `response`, or its stream of events) is read into a `ChatAnswer`. A hint is appended to `instructions`.
 * Requests chained by `previous_response_id` carry only their new items and are read as they are (the
 * chain is not followed): the tracker sees a rewritten conversation, and outputs of calls it does not see
 * are observations of `unknown_tool`.
 */
import { contentText, type ChatAnswer, type ChatMessage, type ChatToolCall } from '@wayfinder/ingest';
import type { StreamAssembler } from './proxy-exchange';
import { isObject, type DialectReadResult } from './dialect-request';
import { SseDataLines } from './sse-data-lines';

export function readResponsesRequest(body: unknown): DialectReadResult {
  if (!isObject(body)) return { ok: false, error: 'the body must be a JSON object (a Responses API request)', field: '(root)' };
  const { input, instructions, stream, user } = body;
  if (typeof input !== 'string' && !Array.isArray(input)) return { ok: false, error: 'input must be a string or an array of input items', field: 'input' };
  if (Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const item = input[i] as unknown;
      if (!isObject(item)) return { ok: false, error: `input[${i}] must be an object`, field: `input[${i}]` };
      if (item.type === 'function_call' && (typeof item.call_id !== 'string' || typeof item.name !== 'string')) return { ok: false, error: `input[${i}] (a function_call) needs call_id and name strings`, field: `input[${i}]` };
      if (item.type === 'function_call_output' && typeof item.call_id !== 'string') return { ok: false, error: `input[${i}].call_id must be a string`, field: `input[${i}].call_id` };
      if ((item.type === undefined || item.type === 'message') && typeof item.role !== 'string') return { ok: false, error: `input[${i}].role must be a string`, field: `input[${i}].role` };
    }
  }
  if (instructions !== undefined && instructions !== null && typeof instructions !== 'string') return { ok: false, error: 'instructions must be a string', field: 'instructions' };
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return { ok: false, error: 'stream must be a boolean', field: 'stream' };
  if (user !== undefined && user !== null && typeof user !== 'string') return { ok: false, error: 'user must be a string', field: 'user' };
  return { ok: true, value: { messages: conversationOf(instructions, input), stream: stream === true, ...(typeof user === 'string' && user !== '' && { user }), body } };
}

/** `instructions` and `input` as the chat conversation the tracker and the step derivation read. */
export function conversationOf(instructions: unknown, input: unknown): ChatMessage[] {
  return translateConversation(instructions, input).messages;
}

/**
 * The conversation, and for each of its messages the `input` items it came from (none for `instructions`
 * or a string input); an item read into no message (reasoning) belongs to the next message.
 */
function translateConversation(instructions: unknown, input: unknown): { messages: ChatMessage[]; origins: number[][] } {
  const out: ChatMessage[] = [];
  const origins: number[][] = [];
  if (typeof instructions === 'string' && instructions !== '') {
    out.push({ role: 'system', content: instructions });
    origins.push([]);
  }
  if (typeof input === 'string') {
    out.push({ role: 'user', content: input });
    origins.push([]);
    return { messages: out, origins };
  }
  let answer: { texts: string[]; calls: ChatToolCall[]; items: number[] } | undefined;
  let unread: number[] = [];
  const push = (message: ChatMessage, items: number[]) => {
    out.push(message);
    origins.push(items);
  };
  const close = () => {
    if (answer) push({ role: 'assistant', content: answer.texts.join('\n'), ...(answer.calls.length > 0 && { tool_calls: answer.calls }) }, answer.items);
    answer = undefined;
  };
  (input as unknown[]).forEach((item, index) => {
    if (!isObject(item)) return;
    const type = item.type ?? 'message';
    if (type === 'reasoning') {
      unread.push(index);
      return;
    }
    if (type === 'function_call' || (type === 'message' && item.role === 'assistant')) {
      answer ??= { texts: [], calls: [], items: [] };
      answer.items.push(...unread, index);
      unread = [];
      if (type === 'function_call') answer.calls.push({ id: item.call_id as string, type: 'function', function: { name: item.name as string, arguments: typeof item.arguments === 'string' ? item.arguments : '' } });
      else answer.texts.push(contentText(item.content));
      return;
    }
    close();
    if (type === 'function_call_output') push({ role: 'tool', tool_call_id: item.call_id as string, content: typeof item.output === 'string' ? item.output : contentText(item.output) }, [...unread, index]);
    else if (type === 'message') push({ role: item.role as string, content: item.content }, [...unread, index]);
    else return;
    unread = [];
  });
  close();
  return { messages: out, origins };
}

/** The request's body without the `input` items that conversation messages at `removed` came from (a rollback, proxy-rollback.ts). */
export function withoutConversationItems(body: Record<string, unknown>, removed: ReadonlySet<number>): Record<string, unknown> {
  if (!Array.isArray(body.input)) return body;
  const { origins } = translateConversation(body.instructions, body.input);
  const gone = new Set<number>();
  for (const index of removed) for (const item of origins[index] ?? []) gone.add(item);
  return { ...body, input: (body.input as unknown[]).filter((_, j) => !gone.has(j)) };
}

/** The request's body with `text` appended to its `instructions` (or as them). */
export function withInstructionsGuidance(body: Record<string, unknown>, text: string): Record<string, unknown> {
  const { instructions } = body;
  return { ...body, instructions: typeof instructions === 'string' && instructions !== '' ? `${instructions}\n\n${text}` : text };
}

/** The answer of output items: the assistant messages' text, the function calls. */
function answerOfOutput(output: unknown[], usage: unknown, status?: unknown): ChatAnswer {
  const items = output.filter(isObject);
  return {
    text: items
      .filter((i) => i.type === 'message')
      .map((i) => contentText(i.content))
      .filter((t) => t !== '')
      .join('\n'),
    toolCalls: items
      .filter((i) => i.type === 'function_call')
      .map((i) => ({ ...(typeof i.call_id === 'string' && { id: i.call_id }), name: typeof i.name === 'string' ? i.name : '', arguments: typeof i.arguments === 'string' ? i.arguments : '' })),
    ...(typeof status === 'string' && { finishReason: status }),
    ...usageOf(usage),
  };
}

function usageOf(usage: unknown): { usage?: ChatAnswer['usage'] } {
  if (!isObject(usage)) return {};
  const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  const inputTokens = count(usage.input_tokens);
  const outputTokens = count(usage.output_tokens);
  if (inputTokens === undefined && outputTokens === undefined) return {};
  return { usage: { ...(inputTokens !== undefined && { inputTokens }), ...(outputTokens !== undefined && { outputTokens }) } };
}

/** The answer of a whole `response`, or undefined when it is none. */
export function answerOfResponse(response: unknown): ChatAnswer | undefined {
  if (!isObject(response) || !Array.isArray(response.output)) return undefined;
  return answerOfOutput(response.output, response.usage, response.status);
}

/**
 * A streamed response assembled from its `response.output_item.done` events (each a whole output item, in
 * `output_index` order) and the usage of `response.completed`. An event line past the bound is dropped
 * (counted) like every stream's.
 */
export class ResponsesStreamAssembler implements StreamAssembler {
  private readonly lines: SseDataLines;
  private readonly items = new Map<number, Record<string, unknown>>();
  private usage: unknown;
  private status?: string;
  unreadable = 0;
  readonly truncated = false;

  constructor(maxChars: number) {
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
    const output = [...this.items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    return answerOfOutput(output, this.usage, this.status);
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
    if (event.type === 'response.output_item.done' && isObject(event.item)) this.items.set(typeof event.output_index === 'number' ? event.output_index : this.items.size, event.item);
    else if ((event.type === 'response.completed' || event.type === 'response.incomplete') && isObject(event.response)) {
      this.usage = event.response.usage;
      if (typeof event.response.status === 'string') this.status = event.response.status;
    }
  }
}
