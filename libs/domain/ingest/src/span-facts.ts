/**
 * What one span says, in Wayfinder's terms, read through the convention it follows (README, "Mapping
 * table"): its role (agent run, LLM call, tool execution, or structure), the identity hints it carries,
 * and for LLM spans the assistant text and requested tool calls, for tool spans the call and its outcome.
 * Each span is read once, when it arrives; pairing and ordering across spans is trace-mapper.ts.
 */
import type { JsonValue } from '@wayfinder/contracts';
import type { Attributes, AttrValue, SpanRecord } from './span-record';
import { isUnrecorded, REDACTED_MARKER } from './unrecorded';

export type SpanRole = 'agent' | 'llm' | 'tool' | 'other';
export type Convention = 'genai' | 'openinference' | 'ai-sdk' | 'claude-code' | 'none';

/** A recorded value, or the fact that it was not recorded. */
export type Recorded<T> = { known: true; value: T } | { known: false };

export interface ToolCallFact {
  tool: string;
  callId?: string;
  args: Recorded<Record<string, JsonValue>>;
}

export interface LlmFacts {
  /** Assistant texts of the output, in order. */
  texts: string[];
  toolCalls: ToolCallFact[];
  /** False when the span recorded no output at all (content capture off). */
  outputKnown: boolean;
  inputTokens?: number;
  outputTokens?: number;
}

export interface ToolFacts extends ToolCallFact {
  result: Recorded<JsonValue>;
  ok: boolean;
  error?: string;
  errorCode?: string;
}

export interface SpanFacts {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  startUs: number;
  endUs: number;
  role: SpanRole;
  convention: Convention;
  /** `wayfinder.agent.id` on the span, else on its resource. */
  explicitAgentId?: string;
  /** `wayfinder.task.id` on the span, else on its resource. */
  explicitTaskId?: string;
  /** gen_ai.agent.id, gen_ai.agent.name, agent.name, ai.telemetry.functionId (agent spans). */
  agentName?: string;
  /** gen_ai.conversation.id or session.id. */
  conversationId?: string;
  serviceName?: string;
  llm?: LlmFacts;
  tool?: ToolFacts;
  /** `claude_code.tool.execution`: how the run of its parent `claude_code.tool` call ended (trace-mapper folds it in). */
  execution?: { ok: boolean; error?: string };
}

const GENAI_LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);
/** GenAI operations that are structure around agents, never an agent run themselves (a workflow of agents). */
const GENAI_STRUCTURE_OPERATIONS = new Set(['invoke_workflow', 'create_agent']);
/**
 * Claude Code's and the Claude Agent SDK's traces (beta, public docs "Monitoring"): `claude_code.tool` per
 * tool call (`tool_name`, `tool_use_id`, and with OTEL_LOG_TOOL_DETAILS its input), with the children
 * `claude_code.tool.blocked_on_user` and `claude_code.tool.execution` (`success`, `error`); the turn is
 * `claude_code.interaction`, model calls `claude_code.llm_request` (no content): structure here.
 */
const CLAUDE_CODE_TOOL = 'claude_code.tool';
/** pydantic-ai's tool span before the GenAI `execute_tool` name (instrumentation versions 1 and 2). */
const PYDANTIC_AI_TOOL = 'running tool';
const AI_SDK_RUNS = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);
const AI_SDK_LLM = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream']);

export function factsOf(span: SpanRecord): SpanFacts {
  const a = span.attributes;
  const { role, convention } = classify(span);
  const facts: SpanFacts = {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
    startUs: span.startUs,
    endUs: span.endUs,
    role,
    convention,
  };
  const explicitAgentId = str(a['wayfinder.agent.id']) ?? str(span.resource['wayfinder.agent.id']);
  if (explicitAgentId) facts.explicitAgentId = explicitAgentId;
  const explicitTaskId = str(a['wayfinder.task.id']) ?? str(span.resource['wayfinder.task.id']);
  if (explicitTaskId) facts.explicitTaskId = explicitTaskId;
  const agentName = str(a['gen_ai.agent.id']) ?? str(a['gen_ai.agent.name']) ?? str(a['agent.name']) ?? (role === 'agent' ? str(a['ai.telemetry.functionId']) : undefined);
  if (agentName) facts.agentName = agentName;
  const conversationId = str(a['gen_ai.conversation.id']) ?? str(a['session.id']);
  if (conversationId) facts.conversationId = conversationId;
  const serviceName = str(span.resource['service.name']);
  if (serviceName) facts.serviceName = serviceName;
  if (role === 'llm') facts.llm = llmFacts(span, convention);
  if (role === 'tool') facts.tool = toolFacts(span, convention);
  if (span.name === `${CLAUDE_CODE_TOOL}.execution` && a['success'] !== undefined) {
    const ok = a['success'] === true || a['success'] === 'true';
    const error = str(a['error']);
    facts.execution = { ok, ...(!ok && { error: error ?? 'the tool reported a failure' }) };
  }
  return facts;
}

function classify(span: SpanRecord): { role: SpanRole; convention: Convention } {
  const a = span.attributes;
  const oiKind = str(a['openinference.span.kind'])?.toUpperCase();
  if (oiKind) {
    if (oiKind === 'AGENT') return { role: 'agent', convention: 'openinference' };
    if (oiKind === 'LLM') return { role: 'llm', convention: 'openinference' };
    if (oiKind === 'TOOL') return { role: 'tool', convention: 'openinference' };
    return { role: 'other', convention: 'openinference' };
  }
  const aiOperation = str(a['ai.operationId']) ?? (span.name.startsWith('ai.') ? span.name : undefined);
  if (aiOperation) {
    if (aiOperation === 'ai.toolCall') return { role: 'tool', convention: 'ai-sdk' };
    if (AI_SDK_LLM.has(aiOperation)) return { role: 'llm', convention: 'ai-sdk' };
    if (AI_SDK_RUNS.has(aiOperation)) return { role: 'agent', convention: 'ai-sdk' };
    return { role: 'other', convention: 'ai-sdk' };
  }
  if (span.name === CLAUDE_CODE_TOOL) return { role: 'tool', convention: 'claude-code' };
  if (span.name.startsWith('claude_code.')) return { role: 'other', convention: 'claude-code' };
  const operation = str(a['gen_ai.operation.name']) ?? genAiOperationFromName(span);
  if (operation) {
    if (GENAI_STRUCTURE_OPERATIONS.has(operation)) return { role: 'other', convention: 'genai' };
    // `gen_ai.invoke_agent`: the operation as some instrumentations name internal agent spans.
    if (operation === 'invoke_agent' || operation === 'gen_ai.invoke_agent') return { role: 'agent', convention: 'genai' };
    if (operation === 'execute_tool' || (span.name === PYDANTIC_AI_TOOL && str(a['gen_ai.tool.name']))) return { role: 'tool', convention: 'genai' };
    if (GENAI_LLM_OPERATIONS.has(operation)) return { role: 'llm', convention: 'genai' };
    return { role: 'other', convention: 'genai' };
  }
  return { role: 'other', convention: 'none' };
}

/** Span names `invoke_agent X`, `execute_tool X`, `chat MODEL`, `invoke_workflow X`, pydantic-ai's `running tool` when gen_ai.operation.name is missing. */
function genAiOperationFromName(span: SpanRecord): string | undefined {
  const hasGenAi = Object.keys(span.attributes).some((k) => k.startsWith('gen_ai.'));
  if (!hasGenAi) return undefined;
  if (span.name === PYDANTIC_AI_TOOL) return 'execute_tool';
  const first = span.name.split(' ', 1)[0];
  return first === 'invoke_agent' || first === 'execute_tool' || GENAI_LLM_OPERATIONS.has(first) || GENAI_STRUCTURE_OPERATIONS.has(first) ? first : undefined;
}

// ---- LLM spans -------------------------------------------------------------------------------------

function llmFacts(span: SpanRecord, convention: Convention): LlmFacts {
  const a = span.attributes;
  const out: LlmFacts = { texts: [], toolCalls: [], outputKnown: false };
  if (convention === 'openinference') readOpenInferenceOutput(a, out);
  else if (convention === 'ai-sdk') readAiSdkOutput(a, out);
  else readGenAiOutput(span, out);
  const input = num(a['gen_ai.usage.input_tokens']) ?? num(a['llm.token_count.prompt']) ?? num(a['ai.usage.inputTokens']) ?? num(a['ai.usage.promptTokens']);
  const output = num(a['gen_ai.usage.output_tokens']) ?? num(a['llm.token_count.completion']) ?? num(a['ai.usage.outputTokens']) ?? num(a['ai.usage.completionTokens']);
  if (input !== undefined) out.inputTokens = input;
  if (output !== undefined) out.outputTokens = output;
  return out;
}

/** `gen_ai.output.messages` (parts), else the older `gen_ai.choice` / `gen_ai.content.completion` events. */
function readGenAiOutput(span: SpanRecord, out: LlmFacts): void {
  const messages = jsonOf(span.attributes['gen_ai.output.messages']);
  if (Array.isArray(messages)) {
    out.outputKnown = true;
    for (const message of messages) {
      if (!isObj(message)) continue;
      const role = str(message.role) ?? 'assistant';
      if (role !== 'assistant') continue;
      const parts = Array.isArray(message.parts) ? message.parts : [];
      for (const part of parts) {
        if (!isObj(part)) continue;
        if (part.type === 'text') {
          const text = str(part.content);
          if (text !== undefined && !isUnrecorded(text)) out.texts.push(text);
        } else if (part.type === 'tool_call') {
          const tool = str(part.name);
          if (tool) out.toolCalls.push({ tool, ...optId(part.id), args: argsOf(part.arguments as AttrValue) });
        }
      }
    }
    return;
  }
  for (const event of span.events) {
    if (event.name === 'gen_ai.choice') {
      const body = eventBody(event.attributes);
      const packed = jsonOf(body.message as AttrValue);
      const message = isObj(packed) ? packed : body;
      readLegacyMessage(message, out);
    } else if (event.name === 'gen_ai.content.completion') {
      const completion = jsonOf(event.attributes['gen_ai.completion']);
      if (Array.isArray(completion)) for (const m of completion) if (isObj(m) && (m.role ?? 'assistant') === 'assistant') readLegacyMessage(m, out);
    }
  }
}

/** The body of a per-message event written as span-event attributes (flat, or one JSON body attribute). */
function eventBody(attributes: Attributes): Record<string, unknown> {
  const packed = jsonOf(attributes['gen_ai.event.content'] ?? attributes['body']);
  return isObj(packed) ? packed : attributes;
}

function readLegacyMessage(message: Record<string, unknown>, out: LlmFacts): void {
  out.outputKnown = true;
  const text = str(message.content);
  if (text !== undefined && !isUnrecorded(text)) out.texts.push(text);
  const calls = jsonOf(message.tool_calls as AttrValue);
  if (!Array.isArray(calls)) return;
  for (const call of calls) {
    if (!isObj(call)) continue;
    const fn = isObj(call.function) ? call.function : call;
    const tool = str(fn.name);
    if (tool) out.toolCalls.push({ tool, ...optId(call.id), args: argsOf(fn.arguments as AttrValue) });
  }
}

/** `llm.output_messages.<i>.message.{role,content,tool_calls.<j>.tool_call.{id,function.name,function.arguments}}`. */
function readOpenInferenceOutput(a: Attributes, out: LlmFacts): void {
  const prefix = 'llm.output_messages.';
  const messages = new Map<number, { role?: string; content?: string; calls: Map<number, Record<string, AttrValue>> }>();
  for (const key of Object.keys(a)) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const dot = rest.indexOf('.');
    const index = Number(rest.slice(0, dot));
    if (!Number.isInteger(index)) continue;
    const field = rest.slice(dot + 1);
    let m = messages.get(index);
    if (!m) messages.set(index, (m = { calls: new Map() }));
    if (field === 'message.role') m.role = str(a[key]);
    else if (field === 'message.content') m.content = str(a[key]);
    else if (field.startsWith('message.tool_calls.')) {
      const callRest = field.slice('message.tool_calls.'.length);
      const cdot = callRest.indexOf('.');
      const callIndex = Number(callRest.slice(0, cdot));
      if (!Number.isInteger(callIndex)) continue;
      let call = m.calls.get(callIndex);
      if (!call) m.calls.set(callIndex, (call = {}));
      call[callRest.slice(cdot + 1)] = a[key];
    }
  }
  if (messages.size === 0) return;
  out.outputKnown = true;
  for (const index of [...messages.keys()].sort((x, y) => x - y)) {
    const m = messages.get(index)!;
    if ((m.role ?? 'assistant') !== 'assistant') continue;
    if (m.content !== undefined && !isUnrecorded(m.content)) out.texts.push(m.content);
    for (const callIndex of [...m.calls.keys()].sort((x, y) => x - y)) {
      const call = m.calls.get(callIndex)!;
      const tool = str(call['tool_call.function.name']);
      if (tool) out.toolCalls.push({ tool, ...optId(call['tool_call.id']), args: argsOf(call['tool_call.function.arguments']) });
    }
  }
}

/** `ai.response.text` and `ai.response.toolCalls` (JSON: [{toolCallId, toolName, input | args}]). */
function readAiSdkOutput(a: Attributes, out: LlmFacts): void {
  const text = str(a['ai.response.text']);
  const calls = jsonOf(a['ai.response.toolCalls']);
  if (text !== undefined || Array.isArray(calls)) out.outputKnown = true;
  if (text !== undefined && !isUnrecorded(text)) out.texts.push(text);
  if (!Array.isArray(calls)) return;
  for (const call of calls) {
    if (!isObj(call)) continue;
    const tool = str(call.toolName);
    if (tool) out.toolCalls.push({ tool, ...optId(call.toolCallId), args: argsOf((call.input ?? call.args) as AttrValue) });
  }
}

// ---- tool spans ------------------------------------------------------------------------------------

function toolFacts(span: SpanRecord, convention: Convention): ToolFacts {
  const a = span.attributes;
  let tool: string | undefined;
  let callId: unknown;
  let rawArgs: AttrValue | undefined;
  let rawResult: AttrValue | undefined;
  if (convention === 'openinference') {
    tool = str(a['tool.name']);
    callId = a['tool_call.id'];
    rawArgs = a['input.value'];
    rawResult = a['output.value'];
  } else if (convention === 'ai-sdk') {
    tool = str(a['ai.toolCall.name']);
    callId = a['ai.toolCall.id'];
    rawArgs = a['ai.toolCall.args'];
    rawResult = a['ai.toolCall.result'];
  } else if (convention === 'claude-code') {
    tool = str(a['tool_name']) ?? str(a['gen_ai.tool.name']);
    callId = a['tool_use_id'] ?? a['gen_ai.tool.call.id'];
    rawArgs = a['tool_input'] ?? a['tool_parameters'] ?? a['gen_ai.tool.call.arguments'] ?? claudeCodeDetails(a);
    rawResult = a['tool_result'] ?? a['gen_ai.tool.call.result'] ?? span.events.find((e) => e.name === 'tool.output')?.attributes['output'];
  } else {
    // `tool_name`: an SDK that names the operation but not gen_ai.tool.name (the Claude Agent SDK's spans);
    // `tool_arguments` / `tool_response`: pydantic-ai's before the GenAI names.
    tool = str(a['gen_ai.tool.name']) ?? str(a['tool_name']) ?? (span.name.startsWith('execute_tool ') ? span.name.slice('execute_tool '.length).trim() : undefined);
    callId = a['gen_ai.tool.call.id'] ?? a['tool_use_id'];
    rawArgs = a['gen_ai.tool.call.arguments'] ?? a['tool_arguments'];
    rawResult = a['gen_ai.tool.call.result'] ?? a['tool_response'];
  }
  const errorType = str(a['error.type']);
  const exception = span.events.find((e) => e.name === 'exception');
  const exceptionMessage = exception ? str(exception.attributes['exception.message']) ?? str(exception.attributes['exception.type']) : undefined;
  // Claude Code: `success: false` (with `error`) on the tool span when its execution failed.
  const claudeError = convention === 'claude-code' && (a['success'] === false || a['success'] === 'false') ? str(a['error']) ?? 'the tool reported a failure' : undefined;
  const failed = span.statusCode === 2 || errorType !== undefined || claudeError !== undefined;
  const facts: ToolFacts = {
    tool: tool && tool.length > 0 ? tool : 'unknown_tool',
    ...optId(callId),
    args: argsOf(rawArgs),
    result: resultOf(rawResult),
    ok: !failed,
  };
  if (failed) {
    const error = span.statusMessage ?? claudeError ?? exceptionMessage ?? errorType;
    if (error !== undefined) facts.error = error;
    if (errorType !== undefined) facts.errorCode = errorType.slice(0, 128);
  }
  return facts;
}

/** Claude Code's detail attributes (OTEL_LOG_TOOL_DETAILS) as the call's arguments, when no input was recorded whole. */
function claudeCodeDetails(a: Attributes): AttrValue | undefined {
  const details: Record<string, string> = {};
  for (const key of ['file_path', 'full_command', 'command', 'pattern', 'url']) {
    const value = str(a[key]);
    if (value !== undefined) details[key] = value;
  }
  return Object.keys(details).length > 0 ? JSON.stringify(details) : undefined;
}

// ---- values ----------------------------------------------------------------------------------------

/** Tool-call arguments: a JSON object (string or structured), a non-object wrapped as `{input}`, or unknown. */
export function argsOf(raw: AttrValue | undefined): Recorded<Record<string, JsonValue>> {
  if (isUnrecorded(raw)) return { known: false };
  const value = typeof raw === 'string' ? parseJsonOr(raw) : (raw as JsonValue);
  if (isUnrecorded(value)) return { known: false };
  if (isObj(value)) return { known: true, value: value as Record<string, JsonValue> };
  return { known: true, value: { input: value as JsonValue } };
}

function resultOf(raw: AttrValue | undefined): Recorded<JsonValue> {
  if (isUnrecorded(raw)) return { known: false };
  if (typeof raw === 'string') {
    // A JSON object result that is redacted inside is still unknown; plain text stays text (not parsed).
    if (raw.includes(REDACTED_MARKER) && raw.trimStart().startsWith('{') && isUnrecorded(parseJsonOr(raw))) return { known: false };
    return { known: true, value: raw };
  }
  return { known: true, value: raw as JsonValue };
}

function jsonOf(value: AttrValue | undefined): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return value;
  return parseJsonOr(text);
}

function parseJsonOr(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function optId(value: unknown): { callId?: string } {
  const id = str(value as AttrValue);
  return id ? { callId: id.slice(0, 128) } : {};
}

function str(value: AttrValue | undefined | unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function num(value: AttrValue | undefined): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

function isObj(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
