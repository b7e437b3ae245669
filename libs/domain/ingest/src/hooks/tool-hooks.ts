/**
 * Claude Code's tool hooks (HTTP hooks POST the same JSON a command hook reads on stdin) → steps and
 * answers (DESIGN §12):
 * - input: `session_id`, `transcript_path`, `cwd`, `hook_event_name` (`PreToolUse`, `PostToolUse`,
 *   `PostToolUseFailure`), `tool_name`, `tool_input`, `tool_use_id`, and after the call `tool_response`
 *   (or `error` for a failure);
 * - a PreToolUse is the action as issued, a PostToolUse its observation (paired by `tool_use_id`);
 * - the PreToolUse answer denies with the reason (`hookSpecificOutput.permissionDecision: "deny"`,
 *   `permissionDecisionReason`) when the agent is frozen or the call is a hard stop; otherwise it makes
 *   no decision (an "allow" would skip the user's own permission prompt) and may carry pending guidance
 *   as `additionalContext`; the PostToolUse answer may carry it too.
 * `seq` comes from the gateway's StepSeqs (`@wayfinder/tenancy`): 1, 2, 3… per session, in Redis in
 * distributed mode so every instance and a restarted one count on.
 */
import { checkAction, compileConstraints } from '@wayfinder/cognitive-map';
import type { CognitiveMap, JsonValue } from '@wayfinder/contracts';
import type { ChatStep } from '../chat/chat-steps';

export type ToolHookEvent = 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure';

export interface ToolHookInput {
  sessionId: string;
  event: ToolHookEvent;
  toolName: string;
  toolInput: Record<string, JsonValue>;
  toolUseId?: string;
  toolResponse?: JsonValue;
  error?: string;
  cwd?: string;
  transcriptPath?: string;
}

export type ToolHookResult = { ok: true; value: ToolHookInput } | { ok: false; error: string; field: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_ID = 128;

/** Reads a hook body; `expected` are the events this endpoint takes. */
export function readToolHook(body: unknown, expected: readonly ToolHookEvent[]): ToolHookResult {
  if (!isObject(body)) return { ok: false, error: 'the body must be a JSON object (a Claude Code hook input)', field: '(root)' };
  const { session_id, hook_event_name, tool_name, tool_input, tool_use_id, tool_response, error, cwd, transcript_path } = body;
  if (typeof session_id !== 'string' || session_id === '' || session_id.length > MAX_ID) return { ok: false, error: `session_id must be a string of 1–${MAX_ID} characters`, field: 'session_id' };
  const event = hook_event_name === undefined ? expected[0] : hook_event_name;
  if (typeof event !== 'string' || !expected.includes(event as ToolHookEvent)) return { ok: false, error: `hook_event_name must be ${expected.join(' or ')} at this endpoint`, field: 'hook_event_name' };
  if (typeof tool_name !== 'string' || tool_name.trim() === '' || tool_name.length > MAX_ID) return { ok: false, error: `tool_name must be a string of 1–${MAX_ID} characters`, field: 'tool_name' };
  if (tool_input !== undefined && !isObject(tool_input)) return { ok: false, error: 'tool_input must be an object', field: 'tool_input' };
  if (tool_use_id !== undefined && (typeof tool_use_id !== 'string' || tool_use_id.length > MAX_ID)) return { ok: false, error: `tool_use_id must be a string of at most ${MAX_ID} characters`, field: 'tool_use_id' };
  if (error !== undefined && typeof error !== 'string') return { ok: false, error: 'error must be a string', field: 'error' };
  return {
    ok: true,
    value: {
      sessionId: session_id,
      event: event as ToolHookEvent,
      toolName: tool_name.trim(),
      toolInput: (tool_input ?? {}) as Record<string, JsonValue>,
      ...(typeof tool_use_id === 'string' && tool_use_id !== '' && { toolUseId: tool_use_id }),
      ...(tool_response !== undefined && { toolResponse: tool_response as JsonValue }),
      ...(typeof error === 'string' && { error }),
      ...(typeof cwd === 'string' && { cwd }),
      ...(typeof transcript_path === 'string' && { transcriptPath: transcript_path }),
    },
  };
}

export interface HookIdentity {
  tenantId: string;
  agentId: string;
  taskId: string;
  runId: string;
}

/** The step of a hook: the action (PreToolUse) or its observation (PostToolUse, PostToolUseFailure). */
export function hookStep(input: ToolHookInput, identity: HookIdentity, seq: number, nowMs: number): ChatStep {
  const pre = input.event === 'PreToolUse';
  const eventId = input.toolUseId ? `hook:${identity.runId.slice(0, 60)}:${input.toolUseId.slice(0, 60)}:${pre ? 'call' : 'obs'}` : `hook:${identity.runId.slice(0, 60)}:${seq}`;
  const base = { schema: 'wayfinder.step.v1' as const, eventId, tenantId: identity.tenantId, ts: new Date(nowMs).toISOString(), agentId: identity.agentId, taskId: identity.taskId, runId: identity.runId, seq };
  const callId = input.toolUseId?.slice(0, MAX_ID);
  if (pre) return { ...base, kind: 'action', action: { tool: input.toolName, args: input.toolInput, ...(callId && { callId }) } };
  const failed = input.event === 'PostToolUseFailure' || responseFailed(input.toolResponse);
  const error = input.error ?? (failed ? errorText(input.toolResponse) : undefined);
  return {
    ...base,
    kind: 'observation',
    observation: { tool: input.toolName, ok: !failed, ...(callId && { callId }), ...(input.toolResponse !== undefined && { content: input.toolResponse }), ...(error !== undefined && { error }) },
  };
}

/** A tool response that says it failed: `success: false`, `is_error` / `isError: true`, or an `error` field. */
function responseFailed(response: JsonValue | undefined): boolean {
  if (!isObject(response)) return false;
  return response.success === false || response.is_error === true || response.isError === true || (typeof response.error === 'string' && response.error !== '');
}

function errorText(response: JsonValue | undefined): string {
  if (isObject(response) && typeof response.error === 'string') return response.error.slice(0, 4096);
  return typeof response === 'string' ? response.slice(0, 4096) : 'the tool reported a failure';
}

/** The PreToolUse answer: deny with the reason, or no decision (with guidance as additional context). */
export function preToolAnswer(decision: { deny?: string; context?: string }): Record<string, unknown> {
  if (decision.deny !== undefined) return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: decision.deny } };
  if (decision.context !== undefined) return { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: decision.context } };
  return {};
}

/** The PostToolUse answer: guidance as additional context; a frozen agent's `decision: "block"` says why it must stop. */
export function postToolAnswer(event: ToolHookEvent, decision: { block?: string; context?: string }): Record<string, unknown> {
  const context = decision.context !== undefined ? { hookSpecificOutput: { hookEventName: event, additionalContext: decision.context } } : {};
  if (decision.block !== undefined) return { decision: 'block', reason: decision.block, ...context };
  return context;
}

/**
 * Whether a proposed call is a hard stop before it runs: it breaks a hard constraint of the task's map by
 * a declarative rule (a forbidden tool, a protected path), which the navigator would answer with a
 * freeze once the call is made. Count bounds and the embedder fallback need the run's history: they are
 * left to the detectors. Returns the reason, or undefined.
 */
export function hardStopOf(map: Pick<CognitiveMap, 'constraints'> | undefined, tool: string, args: Record<string, JsonValue>): string | undefined {
  if (!map || map.constraints.length === 0) return undefined;
  const facts = { readPaths: new Set<string>(), ownPaths: new Set<string>() };
  for (const constraint of compileConstraints(map.constraints).filter((c) => c.hard)) {
    const broken = checkAction(constraint, tool, args, facts);
    if (broken) return `this call breaks hard constraint ${constraint.number} ("${constraint.text}"): ${broken.reason}`;
  }
  return undefined;
}
