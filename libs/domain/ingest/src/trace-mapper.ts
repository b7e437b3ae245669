/**
 * One trace's span facts → step drafts, in event-time order (README, "From spans to steps"):
 * - each span belongs to a run: the nearest agent span above it, or, while that has not arrived, the
 *   top-most ancestor known (a missing parent's id, since children are exported first);
 * - LLM spans give assistant messages (at the span's end) and the tool calls they request;
 * - tool spans give observations (at their end) and, when no LLM span of the run carried the call, the
 *   action (at their start);
 * - calls pair with tool spans by call id, else by tool name and arguments, else by order (same tool,
 *   the tool span starting after the LLM span ended); a paired call is placed at its tool span's start.
 * Drafts carry anchors (`llm:<span>:<i>`, `tool:<span>`, …) so that the normalizer, which maps a trace
 * again whenever spans arrive, releases each call once even when a later span changes its pairing.
 */
import type { JsonValue, StepEvent } from '@wayfinder/contracts';
import type { Convention, SpanFacts, ToolCallFact } from './span-facts';
import { unknownArgs, unknownContent, unknownToken } from './unrecorded';

export interface RunIdentity {
  agentId: string;
  taskId: string;
  /** True when no later span can change it: the run's agent span is known, or an explicit id applies. */
  final: boolean;
}

type StepBody =
  | { kind: 'action'; action: { tool: string; args: Record<string, JsonValue>; callId?: string } }
  | { kind: 'observation'; observation: { tool: string; ok: boolean; callId?: string; content?: JsonValue; error?: string; errorCode?: string } }
  | { kind: 'message'; message: { role: 'assistant'; text: string; type: 'output' } };

export interface StepDraft {
  eventId: string;
  anchors: string[];
  timeUs: number;
  traceId: string;
  spanId: string;
  /** The run's span id (see above). */
  runId: string;
  identity: RunIdentity;
  convention: Convention;
  body: StepBody;
  usage?: StepEvent['usage'];
  /** Fields whose content was not recorded. */
  unknown: string[];
  /** A paired action: the tool span id and the call (`<llm span>:<index>`). */
  pair?: [string, string];
}

/** Pairs decided in an earlier release (tool span id → call key), honoured before any other pairing. */
export type PairPins = ReadonlyMap<string, string>;

const KIND_RANK = { message: 0, action: 1, observation: 2 } as const;

/**
 * `spans`: every span of the trace (for runs and identities); `active`: the spans to make drafts of
 * (default all; the normalizer leaves out the spans whose every step went out and whose calls are paired).
 */
export function mapTrace(spans: ReadonlyMap<string, SpanFacts>, pins: PairPins = new Map(), active: Iterable<SpanFacts> = spans.values()): StepDraft[] {
  const runOf = runResolver(spans);
  const llmCalls = new Map<string, PendingCall[]>();
  const toolSpans = new Map<string, SpanFacts[]>();
  const drafts: StepDraft[] = [];

  // Arrival order must not matter: spans are visited by start time, then id.
  const ordered = [...active].filter((s) => s.role === 'llm' || s.role === 'tool').sort((x, y) => x.startUs - y.startUs || (x.spanId < y.spanId ? -1 : x.spanId > y.spanId ? 1 : 0));
  for (const span of ordered) {
    const runId = runOf(span);
    if (span.role === 'tool') {
      push(toolSpans, runId, span);
      continue;
    }
    const llm = span.llm!;
    const identity = identityOf(span, runId, spans);
    const base = { traceId: span.traceId, spanId: span.spanId, runId, identity, convention: span.convention };
    const usage = usageOf(llm.inputTokens, llm.outputTokens, span);
    let usageGiven = false;
    llm.texts.forEach((text, i) => {
      drafts.push({ ...base, eventId: eventIdOf(span, `msg.${i}`), anchors: [`msg:${span.spanId}:${i}`], timeUs: span.endUs, body: { kind: 'message', message: { role: 'assistant', text, type: 'output' } }, unknown: [], ...(usageGiven ? {} : usage) });
      usageGiven = true;
    });
    if (!llm.outputKnown) {
      // The turn happened but its content was not recorded: one message of unknown text carries the usage.
      drafts.push({ ...base, eventId: eventIdOf(span, 'msg.0'), anchors: [`msg:${span.spanId}:0`], timeUs: span.endUs, body: { kind: 'message', message: { role: 'assistant', text: '', type: 'output' } }, unknown: ['text'], ...usage });
      usageGiven = true;
    }
    llm.toolCalls.forEach((call, i) => push(llmCalls, runId, { span, call, index: i, usage: usageGiven || i > 0 ? undefined : usage.usage }));
  }

  // Claude Code records a call's outcome on its `claude_code.tool.execution` child, not on the tool span.
  const executions = new Map<string, NonNullable<SpanFacts['execution']>>();
  for (const span of spans.values()) if (span.execution && span.parentSpanId) executions.set(span.parentSpanId, span.execution);

  for (const [runId, tools] of toolSpans) {
    const calls = llmCalls.get(runId) ?? [];
    const pairs = pairCalls(calls, tools, pins);
    for (const tool of tools) {
      const call = pairs.get(tool.spanId);
      const execution = executions.get(tool.spanId);
      const recorded = tool.tool!;
      const t = execution && recorded.ok && !execution.ok ? { ...recorded, ok: false, error: execution.error } : recorded;
      const identity = identityOf(tool, runId, spans);
      const base = { traceId: tool.traceId, spanId: tool.spanId, runId, identity, convention: tool.convention };
      const callId = call?.call.callId ?? t.callId;
      if (call) {
        call.paired = true;
        const draft = actionDraft(call, { ...base, spanId: call.span.spanId }, tool.startUs, [`llm:${call.span.spanId}:${call.index}`, `tool:${tool.spanId}`], t.args.known ? t.args.value : undefined);
        draft.pair = [tool.spanId, `${call.span.spanId}:${call.index}`];
        drafts.push(draft);
      } else {
        const eventId = eventIdOf(tool, 'call');
        const args = t.args.known ? t.args.value : unknownArgs(eventId);
        drafts.push({ ...base, eventId, anchors: [`tool:${tool.spanId}`], timeUs: tool.startUs, body: { kind: 'action', action: { tool: t.tool, args, ...(callId ? { callId } : {}) } }, unknown: t.args.known ? [] : ['args'] });
      }
      const eventId = eventIdOf(tool, 'obs');
      const unknown: string[] = [];
      const observation: Extract<StepBody, { kind: 'observation' }>['observation'] = { tool: call?.call.tool ?? t.tool, ok: t.ok, ...(callId ? { callId } : {}) };
      if (t.result.known) observation.content = t.result.value;
      else {
        observation.content = unknownContent(eventId);
        unknown.push('content');
      }
      if (!t.ok) {
        if (t.error !== undefined) observation.error = t.error;
        else {
          observation.error = `error not recorded ${unknownToken(eventId, 'error')}`;
          unknown.push('error');
        }
        if (t.errorCode !== undefined) observation.errorCode = t.errorCode;
      }
      drafts.push({ ...base, eventId, anchors: [`obs:${tool.spanId}`], timeUs: tool.endUs, body: { kind: 'observation', observation }, unknown });
    }
  }

  // Calls no tool span answered (yet): the action at the LLM span's end.
  for (const calls of llmCalls.values()) {
    for (const call of calls) {
      if (call.paired) continue;
      const runId = runOf(call.span);
      const base = { traceId: call.span.traceId, spanId: call.span.spanId, runId, identity: identityOf(call.span, runId, spans), convention: call.span.convention };
      drafts.push(actionDraft(call, base, call.span.endUs, [`llm:${call.span.spanId}:${call.index}`], undefined));
    }
  }

  return drafts.sort(byEventTime);
}

export function byEventTime(a: StepDraft, b: StepDraft): number {
  return a.timeUs - b.timeUs || KIND_RANK[a.body.kind] - KIND_RANK[b.body.kind] || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0);
}

interface PendingCall {
  span: SpanFacts;
  call: ToolCallFact;
  index: number;
  usage?: StepEvent['usage'];
  paired?: boolean;
}

function actionDraft(
  call: PendingCall,
  base: Pick<StepDraft, 'traceId' | 'spanId' | 'runId' | 'identity' | 'convention'>,
  timeUs: number,
  anchors: string[],
  toolArgs: Record<string, JsonValue> | undefined,
): StepDraft {
  const eventId = eventIdOf(call.span, `call.${call.index}`);
  const known = call.call.args.known ? call.call.args.value : toolArgs;
  const callId = call.call.callId;
  return {
    ...base,
    eventId,
    anchors,
    timeUs,
    body: { kind: 'action', action: { tool: call.call.tool, args: known ?? unknownArgs(eventId), ...(callId ? { callId } : {}) } },
    unknown: known ? [] : ['args'],
    ...(call.usage ? { usage: call.usage } : {}),
  };
}

/** Tool span id → the LLM call it executes: by call id, else tool name and arguments, else order. */
function pairCalls(calls: PendingCall[], tools: SpanFacts[], pins: PairPins): Map<string, PendingCall> {
  const pairs = new Map<string, PendingCall>();
  const free = calls.filter((c) => !c.paired);
  const rest: SpanFacts[] = [];
  for (const tool of tools) {
    const pinned = pins.get(tool.spanId);
    const i = pinned === undefined ? -1 : free.findIndex((c) => `${c.span.spanId}:${c.index}` === pinned);
    if (i < 0) {
      rest.push(tool);
      continue;
    }
    pairs.set(tool.spanId, free[i]);
    free.splice(i, 1);
  }
  // A call pinned to a tool span that is not mapped this time (its steps all went out) stays taken.
  if (pins.size > 0) {
    const taken = new Set(pins.values());
    for (let i = free.length - 1; i >= 0; i--) if (taken.has(`${free[i].span.spanId}:${free[i].index}`)) free.splice(i, 1);
  }
  tools = rest;
  const take = (tool: SpanFacts, match: (c: PendingCall) => boolean): boolean => {
    const i = free.findIndex(match);
    if (i < 0) return false;
    pairs.set(tool.spanId, free[i]);
    free.splice(i, 1);
    return true;
  };
  const byStart = [...tools].sort((x, y) => x.startUs - y.startUs || (x.spanId < y.spanId ? -1 : 1));
  const unpaired: SpanFacts[] = [];
  for (const tool of byStart) {
    const id = tool.tool!.callId;
    if (!id || !take(tool, (c) => c.call.callId === id)) unpaired.push(tool);
  }
  const left: SpanFacts[] = [];
  for (const tool of unpaired) {
    const t = tool.tool!;
    const args = t.args.known ? canonical(t.args.value) : undefined;
    const matched = args !== undefined && take(tool, (c) => c.call.tool === t.tool && (c.call.callId === undefined || t.callId === undefined) && c.call.args.known && canonical(c.call.args.value) === args);
    if (!matched) left.push(tool);
  }
  for (const tool of left) {
    const t = tool.tool!;
    take(tool, (c) => c.call.tool === t.tool && (c.call.callId === undefined || t.callId === undefined) && c.span.endUs <= tool.startUs);
  }
  return pairs;
}

/** Span → run id, memoized: the nearest agent span above (or itself), else the top-most known ancestor. */
function runResolver(spans: ReadonlyMap<string, SpanFacts>): (span: SpanFacts) => string {
  const memo = new Map<string, string>();
  const resolve = (span: SpanFacts, depth: number): string => {
    const cached = memo.get(span.spanId);
    if (cached) return cached;
    let run: string;
    if (span.role === 'agent') run = span.spanId;
    else if (!span.parentSpanId) run = span.spanId;
    else {
      const parent = spans.get(span.parentSpanId);
      run = parent && depth < 256 ? resolve(parent, depth + 1) : span.parentSpanId;
    }
    memo.set(span.spanId, run);
    return run;
  };
  // A nested agent span is a run of its own: resolution stops at the first agent span on the way up.
  return (span) => resolve(span, 0);
}

/**
 * agentId: explicit `wayfinder.agent.id` (span, then resource), then the run's agent span's gen_ai.agent.id
 * / name (or OpenInference agent.name, AI SDK functionId), then service.name. taskId: explicit
 * `wayfinder.task.id`, then the conversation / session id of the agent span or the span itself, then
 * the trace id.
 */
function identityOf(span: SpanFacts, runId: string, spans: ReadonlyMap<string, SpanFacts>): RunIdentity {
  const agent = spans.get(runId);
  const agentSpan = agent && agent.role === 'agent' ? agent : undefined;
  const explicit = span.explicitAgentId ?? agentSpan?.explicitAgentId;
  const agentId = explicit ?? agentSpan?.agentName ?? span.serviceName ?? agentSpan?.serviceName ?? 'unknown-agent';
  const taskId = span.explicitTaskId ?? agentSpan?.explicitTaskId ?? agentSpan?.conversationId ?? span.conversationId ?? span.traceId;
  return { agentId: clip(agentId), taskId: clip(taskId), final: explicit !== undefined || agentSpan !== undefined };
}

function usageOf(inputTokens: number | undefined, outputTokens: number | undefined, span: SpanFacts): { usage?: StepEvent['usage'] } {
  if (inputTokens === undefined && outputTokens === undefined) return {};
  return {
    usage: {
      ...(inputTokens !== undefined ? { inputTokens } : {}),
      ...(outputTokens !== undefined ? { outputTokens } : {}),
      latencyMs: (span.endUs - span.startUs) / 1000,
    },
  };
}

/** `otlp:<trace>:<span>:<part>`: the same span sent twice gives the same event ids. */
export function eventIdOf(span: Pick<SpanFacts, 'traceId' | 'spanId'>, part: string): string {
  return `otlp:${span.traceId}:${span.spanId}:${part}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

function clip(id: string): string {
  return id.length <= 128 ? id : id.slice(0, 128);
}

