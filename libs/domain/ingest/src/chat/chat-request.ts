/**
 * The parts of an OpenAI-compatible chat completion request and response the LLM proxy reads (DESIGN
 * §12): messages with their roles, tool calls and tool results, `stream`, `user`. Everything else is the
 * upstream's and passes through untouched. `readChatRequest` checks only what the proxy relies on and
 * names the field it stops at (`messages[2].role`), so a bad body is a 400 that says where.
 */

/** A tool call as the assistant message carries it (`arguments` is a JSON text). */
export interface ChatToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/** One message of the conversation; unknown fields are kept as they are. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ChatRequest {
  messages: ChatMessage[];
  stream: boolean;
  user?: string;
  /** The whole body, as sent (forwarded with only the messages changed). */
  body: Record<string, unknown>;
}

/** The assistant's answer of one completion, streamed or not. */
export interface ChatAnswer {
  text: string;
  toolCalls: Array<{ id?: string; name: string; arguments: string }>;
  finishReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
}

export type ChatRequestResult = { ok: true; value: ChatRequest } | { ok: false; error: string; field: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readChatRequest(body: unknown): ChatRequestResult {
  if (!isObject(body)) return { ok: false, error: 'the body must be a JSON object (a chat completion request)', field: '(root)' };
  const { messages, stream, user } = body;
  if (!Array.isArray(messages) || messages.length === 0) return { ok: false, error: 'messages must be a non-empty array of chat messages', field: 'messages' };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as unknown;
    if (!isObject(m)) return { ok: false, error: `messages[${i}] must be an object`, field: `messages[${i}]` };
    if (typeof m.role !== 'string' || m.role === '') return { ok: false, error: `messages[${i}].role must be a string`, field: `messages[${i}].role` };
    if (m.tool_calls !== undefined && !Array.isArray(m.tool_calls)) return { ok: false, error: `messages[${i}].tool_calls must be an array`, field: `messages[${i}].tool_calls` };
    if (m.role === 'tool' && m.tool_call_id !== undefined && typeof m.tool_call_id !== 'string') return { ok: false, error: `messages[${i}].tool_call_id must be a string`, field: `messages[${i}].tool_call_id` };
  }
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return { ok: false, error: 'stream must be a boolean', field: 'stream' };
  if (user !== undefined && typeof user !== 'string') return { ok: false, error: 'user must be a string', field: 'user' };
  return { ok: true, value: { messages: messages as ChatMessage[], stream: stream === true, ...(user !== undefined && { user }), body } };
}

/** The text of a message's content: a string, or the text parts of a content array. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** The answer of a non-streamed completion response (its first choice), or undefined when it has none. */
export function answerOfCompletion(response: unknown): ChatAnswer | undefined {
  if (!isObject(response) || !Array.isArray(response.choices) || response.choices.length === 0) return undefined;
  const choice = response.choices[0] as unknown;
  if (!isObject(choice) || !isObject(choice.message)) return undefined;
  const message = choice.message;
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
  return {
    text: contentText(message.content),
    toolCalls: calls.filter(isObject).map((c) => {
      const fn = isObject(c.function) ? c.function : {};
      return { ...(typeof c.id === 'string' && { id: c.id }), name: typeof fn.name === 'string' ? fn.name : '', arguments: typeof fn.arguments === 'string' ? fn.arguments : '' };
    }),
    ...(typeof choice.finish_reason === 'string' && { finishReason: choice.finish_reason }),
    ...usageOf(response.usage),
  };
}

export function usageOf(usage: unknown): { usage?: ChatAnswer['usage'] } {
  if (!isObject(usage)) return {};
  const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  const inputTokens = count(usage.prompt_tokens);
  const outputTokens = count(usage.completion_tokens);
  if (inputTokens === undefined && outputTokens === undefined) return {};
  return { usage: { ...(inputTokens !== undefined && { inputTokens }), ...(outputTokens !== undefined && { outputTokens }) } };
}
