/**
 * Chat completion traffic → `wayfinder.step.v1` events (DESIGN §12, the LLM proxy):
 * - a request's new messages: each tool result is an observation (its tool named by the assistant tool
 *   call it answers), each assistant message the proxy did not see answered (a restart, another
 *   instance) is a message and its tool calls actions; user and system messages are the agent's
 *   instructions, not steps (the first step of an answer to a user message carries `afterUser`);
 * - a response (streamed or not): the assistant's text is a message, each tool call an action.
 * `seq` is dense and comes from the conversation itself: a step's seq is `seqBase` plus the number of
 * steps the messages before it make (`stepCount`), so consecutive steps differ by one (the correction
 * ladder counts steps by seq) and the same message re-sent in a later request (every request carries the
 * whole history) is the same step, with the same seq and `eventId`: downstream drops it as a duplicate. The run is named by
 * the caller or derived from the conversation's opening (system prompt and first user message), so a
 * new conversation is a new run and its seq may start at 0 again.
 */
import type { JsonValue } from '@wayfinder/contracts';
import { hash32, hashHex } from '@wayfinder/detection';
import { contentText, type ChatAnswer, type ChatMessage } from './chat-request';

/** Tool calls of one assistant message made steps of (the rest are left out). */
export const MAX_TOOL_CALLS = 128;

export interface ChatIdentity {
  tenantId: string;
  agentId: string;
  taskId: string;
  runId: string;
}

type Body =
  | { kind: 'action'; action: { tool: string; args: Record<string, JsonValue>; callId?: string } }
  | { kind: 'observation'; observation: { tool: string; ok: boolean; callId?: string; content?: JsonValue; error?: string } }
  | { kind: 'message'; message: { role: 'assistant'; text: string; type: 'output' } }
  | { kind: 'compaction'; compaction: { reason: string } };

/** A step as the proxy publishes it (the route checks it against the StepEvent contract). */
export type ChatStep = {
  schema: 'wayfinder.step.v1';
  eventId: string;
  tenantId: string;
  ts: string;
  agentId: string;
  taskId: string;
  runId: string;
  seq: number;
  usage?: { inputTokens?: number; outputTokens?: number; latencyMs?: number };
  /** On the first step of an answer to a user message (user messages make no steps): see StepAttributes. */
  attributes?: { afterUser: true };
} & Body;

/** A tool result starting like an error message is a failed observation (OpenAI tool messages carry no status). */
const ERROR_TEXT = /^\s*(?:error|exception|traceback|fatal|failed|failure)\b|^\s*\{\s*"error"\s*:/i;
/** Tool names are ids of at most 128 characters; a call without a name is `unknown_tool`. */
const MAX_ID = 128;

/** The run of a conversation: named by the caller, else its opening (system prompt, first user message). */
export function conversationRunId(messages: readonly ChatMessage[], named?: string): string {
  if (named !== undefined && named !== '') return named;
  const opening: string[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') opening.push(`s:${contentText(m.content)}`);
    else if (m.role === 'user') {
      opening.push(`u:${contentText(m.content)}`);
      break;
    } else break;
  }
  const text = opening.join('\n');
  return `chat-${hashHex(hash32(text))}${hashHex(hash32(text, 0x01000193))}`;
}

export function chatEventId(identity: ChatIdentity, seq: number): string {
  const who = `${identity.tenantId}\u0000${identity.agentId}\u0000${identity.taskId}`;
  return `chat:${hashHex(hash32(who))}${hashHex(hash32(who, 0x01000193))}:${identity.runId.slice(0, 80)}:${seq}`;
}

/** How many steps a message makes: a tool result one, an assistant message its text and tool calls. */
export function stepCount(message: ChatMessage): number {
  if (message.role === 'tool') return 1;
  if (message.role !== 'assistant') return 0;
  return (contentText(message.content).trim() !== '' ? 1 : 0) + Math.min(message.tool_calls?.length ?? 0, MAX_TOOL_CALLS);
}

/** The number of steps the messages before `index` make. */
export function stepsBefore(messages: readonly ChatMessage[], index: number): number {
  let n = 0;
  for (let i = 0; i < Math.min(index, messages.length); i++) n += stepCount(messages[i]);
  return n;
}

/**
 * The steps of a request's messages from index `from` on, and the seq its answer will take. `answered`:
 * the index of an assistant message the proxy already made steps of from its response (skipped here).
 */
export function requestSteps(
  messages: readonly ChatMessage[],
  from: number,
  identity: ChatIdentity,
  seqBase: number,
  ts: string,
  answered?: number,
): { steps: ChatStep[]; answerSeq: number; answerAfterUser: boolean } {
  const toolOfCall = new Map<string, string>();
  for (const m of messages) for (const call of m.tool_calls ?? []) if (typeof call?.id === 'string' && typeof call.function?.name === 'string') toolOfCall.set(call.id, call.function.name);
  const steps: ChatStep[] = [];
  let seq = seqBase;
  for (let index = 0; index < messages.length; index++) {
    const m = messages[index];
    const count = stepCount(m);
    if (index >= from && count > 0) {
      if (m.role === 'tool') {
        const callId = typeof m.tool_call_id === 'string' && m.tool_call_id !== '' ? m.tool_call_id.slice(0, MAX_ID) : undefined;
        const tool = toolName((callId && toolOfCall.get(m.tool_call_id as string)) || (typeof m.name === 'string' ? m.name : ''));
        const text = contentText(m.content);
        const ok = !ERROR_TEXT.test(text);
        steps.push(step(identity, seq, ts, { kind: 'observation', observation: { tool, ok, ...(callId && { callId }), content: text, ...(!ok && { error: text.slice(0, 4096) }) } }));
      } else if (index !== answered) {
        const calls = (m.tool_calls ?? []).map((c) => ({ ...(typeof c?.id === 'string' && { id: c.id }), name: c?.function?.name ?? '', arguments: c?.function?.arguments ?? '' }));
        steps.push(...answerSteps({ text: contentText(m.content), toolCalls: calls }, identity, seq, ts, undefined, messages[index - 1]?.role === 'user'));
      }
    }
    seq += count;
  }
  return { steps, answerSeq: seq, answerAfterUser: messages.at(-1)?.role === 'user' };
}

/**
 * The steps of one assistant answer from `seq` on: its text, then its tool calls (as stepCount counts them).
 * `afterUser`: the answer follows a user message; its first step says so (the same answer re-sent in a
 * later request follows the same message, so its steps stay the same).
 */
export function answerSteps(answer: ChatAnswer, identity: ChatIdentity, seq: number, ts: string, latencyMs?: number, afterUser = false): ChatStep[] {
  const steps: ChatStep[] = [];
  const usage = answer.usage || latencyMs !== undefined ? { usage: { ...answer.usage, ...(latencyMs !== undefined && { latencyMs }) } } : {};
  let next = seq;
  if (answer.text.trim() !== '') steps.push({ ...step(identity, next++, ts, { kind: 'message', message: { role: 'assistant', text: answer.text, type: 'output' } }), ...usage });
  for (const call of answer.toolCalls.slice(0, MAX_TOOL_CALLS)) {
    const callId = call.id !== undefined && call.id !== '' ? call.id.slice(0, MAX_ID) : undefined;
    const action = step(identity, next++, ts, { kind: 'action', action: { tool: toolName(call.name), args: argsOf(call.arguments), ...(callId && { callId }) } });
    steps.push(steps.length === 0 ? { ...action, ...usage } : action);
  }
  if (afterUser && steps.length > 0) steps[0].attributes = { afterUser: true };
  return steps;
}

/** A compaction step: the conversation the agent sent no longer extends the one before. */
export function rewriteStep(identity: ChatIdentity, seq: number, ts: string, before: number, now: number): ChatStep {
  return step(identity, seq, ts, { kind: 'compaction', compaction: { reason: `the conversation was rewritten (${before} messages before, ${now} now)` } });
}

/** Tool call arguments (a JSON text) as an object: a non-object value is `{value}`, text that is not JSON `{arguments}`. */
export function argsOf(text: string): Record<string, JsonValue> {
  if (text.trim() === '') return {};
  try {
    const parsed = JSON.parse(text) as JsonValue;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : { value: parsed };
  } catch {
    return { arguments: text };
  }
}

function toolName(name: string): string {
  const trimmed = name.trim();
  return trimmed === '' ? 'unknown_tool' : trimmed.slice(0, MAX_ID);
}

function step(identity: ChatIdentity, seq: number, ts: string, body: Body): ChatStep {
  return { schema: 'wayfinder.step.v1', eventId: chatEventId(identity, seq), tenantId: identity.tenantId, ts, agentId: identity.agentId, taskId: identity.taskId, runId: identity.runId, seq, ...body };
}
