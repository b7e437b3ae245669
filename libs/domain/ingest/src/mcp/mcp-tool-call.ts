/**
 * MCP's `tools/call` (Streamable HTTP, revisions 2025-06-18 and 2026-07-28) as steps and answers
 * (DESIGN §12): the JSON-RPC request is the agent's action (the tool's `name`, its `arguments`), the
 * JSON-RPC response to it the observation (the result's text blocks, `isError` a failure; a JSON-RPC
 * error a failure too). A call Wayfinder refuses (a frozen agent, a hard stop) is answered as a tool
 * result with `isError` and the reason, not as a JSON-RPC error: the model reads tool results, so it
 * can correct itself; a protocol error would stop the client instead. Guidance goes into the next
 * result as one more text block. Nothing here forwards or publishes: the gateway's MCP door does.
 */
import type { JsonValue } from '@wayfinder/contracts';
import type { ChatIdentity, ChatStep } from '../chat/chat-steps';

export type JsonRpcId = string | number;

export interface McpToolCall {
  id: JsonRpcId;
  name: string;
  arguments: Record<string, JsonValue>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_NAME = 128;
/** The most text of a result kept in its observation (the contract caps content at 64 KiB anyway). */
const MAX_RESULT_CHARS = 16_384;

/**
 * The `tools/call` request in a POSTed JSON-RPC message, or undefined (another method, a notification,
 * a response, or a call the server itself must refuse: a missing name is the server's error to give).
 */
export function readMcpToolCall(message: unknown): McpToolCall | undefined {
  if (!isObject(message) || message.method !== 'tools/call') return undefined;
  const { id, params } = message;
  if ((typeof id !== 'string' && typeof id !== 'number') || !isObject(params)) return undefined;
  if (typeof params.name !== 'string' || params.name.trim() === '' || params.name.length > MAX_NAME) return undefined;
  if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
  return { id, name: params.name, arguments: (params.arguments ?? {}) as Record<string, JsonValue> };
}

/** Whether a JSON-RPC message is the response (result or error) to the request `id`. */
export function isResponseTo(message: unknown, id: JsonRpcId): message is Record<string, unknown> {
  return isObject(message) && message.id === id && message.method === undefined && ('result' in message || 'error' in message);
}

/** The step's envelope: seq from the caller (dense per run), its eventId from the run and the seq. */
function envelope(identity: ChatIdentity, seq: number, nowMs: number) {
  return { schema: 'wayfinder.step.v1' as const, eventId: `mcp:${identity.runId.slice(0, 60)}:${seq}`, tenantId: identity.tenantId, ts: new Date(nowMs).toISOString(), agentId: identity.agentId, taskId: identity.taskId, runId: identity.runId, seq };
}

/** The callId both steps share: the JSON-RPC id, unique among the session's requests in flight. */
const callIdOf = (call: McpToolCall) => `mcp-${String(call.id).slice(0, MAX_NAME - 4)}`;

export function mcpActionStep(call: McpToolCall, identity: ChatIdentity, seq: number, nowMs: number): ChatStep {
  return { ...envelope(identity, seq, nowMs), kind: 'action', action: { tool: call.name, args: call.arguments, callId: callIdOf(call) } };
}

/** The observation of the call's JSON-RPC response: its text blocks (else its structured content), failed when `isError` or an error. */
export function mcpObservationStep(call: McpToolCall, response: Record<string, unknown>, identity: ChatIdentity, seq: number, nowMs: number): ChatStep {
  const base = { ...envelope(identity, seq, nowMs), kind: 'observation' as const };
  const observation = { tool: call.name, callId: callIdOf(call) };
  if (isObject(response.error)) {
    const message = typeof response.error.message === 'string' ? response.error.message : 'the MCP server answered with an error';
    return { ...base, observation: { ...observation, ok: false, error: message.slice(0, MAX_RESULT_CHARS) } };
  }
  const result = isObject(response.result) ? response.result : {};
  const text = resultText(result);
  if (result.isError === true) return { ...base, observation: { ...observation, ok: false, error: text === '' ? 'the tool reported an error' : text } };
  return { ...base, observation: { ...observation, ok: true, ...(text !== '' ? { content: text } : result.structuredContent !== undefined && { content: result.structuredContent as JsonValue }) } };
}

/** The result's text: its text blocks joined; other blocks (images, resources) by their type. */
function resultText(result: Record<string, unknown>): string {
  const blocks = Array.isArray(result.content) ? result.content.filter(isObject) : [];
  const parts = blocks.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${typeof b.type === 'string' ? b.type : 'content'}]`));
  return parts.join('\n').slice(0, MAX_RESULT_CHARS);
}

/** The answer to a call Wayfinder does not forward: a tool result with `isError` and the reason. */
export function refusedToolResult(id: JsonRpcId, reason: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: reason }], isError: true } };
}

/** The response with `text` as one more text block of its result; undefined when it has no result content to add to (an error). */
export function withGuidanceBlock(response: Record<string, unknown>, text: string): Record<string, unknown> | undefined {
  const result = response.result;
  if (!isObject(result) || !Array.isArray(result.content)) return undefined;
  return { ...response, result: { ...result, content: [...(result.content as unknown[]), { type: 'text', text }] } };
}
