/**
 * The OTLP normalizer (README, "Ordering across arrival"). Spans are exported when they end, children
 * first, in batches, sometimes never for the root; agents want their steps in event order. So spans are
 * buffered per trace (tenant + trace id) and released as steps:
 * - behind an event-time watermark per trace: the newest span end seen minus `watermarkDelayMs`;
 * - all at once when the trace flushes: `idleFlushMs` without a new span, or `rootGraceMs` after its
 *   root span (the agent span, or whatever encloses it) arrived — the root ends last, so the grace only
 *   waits for batches of the same export still on their way;
 * - a step whose run identity can still change (no agent span yet and no explicit `wayfinder.agent.id`)
 *   waits for the flush rather than the watermark, so its agentId and taskId do not depend on arrival.
 * `seq` is numbered per agent and run at release. A step released after one with a later event time in
 * its run (its span arrived behind the watermark, or after the flush) is appended with `wayfinder.late`,
 * never reordered. A span seen before (same trace and span id) is a duplicate and dropped.
 *
 * Memory is bounded: `maxOpenTraces` open traces (past it the least recently active one is flushed early),
 * `maxSpans` spans retained in all (flushed traces are kept for late spans and duplicates; past the bound
 * the oldest flushed traces are forgotten first, then the oldest open trace is flushed), `maxSpansPerTrace`
 * (a trace past it is flushed and its further spans are late) and `maxRuns` run counters (least recently
 * used forgotten). A forgotten trace's re-sent span is no longer known as a duplicate; its steps keep
 * their deterministic event ids.
 */
import { STEP_SCHEMA, type StepEvent } from '@wayfinder/contracts';
import type { Clock } from './clock';
import { factsOf, type SpanFacts } from './span-facts';
import type { SpanRecord } from './span-record';
import { mapTrace, type StepDraft } from './trace-mapper';
import { UNKNOWN_KEY } from './unrecorded';

export interface NormalizerOptions {
  watermarkDelayMs: number;
  idleFlushMs: number;
  rootGraceMs: number;
  maxOpenTraces: number;
  maxSpans: number;
  maxSpansPerTrace: number;
  maxRuns: number;
}

export const DEFAULT_NORMALIZER_OPTIONS: NormalizerOptions = {
  watermarkDelayMs: 10_000,
  idleFlushMs: 30_000,
  rootGraceMs: 1_000,
  maxOpenTraces: 10_000,
  maxSpans: 200_000,
  maxSpansPerTrace: 20_000,
  maxRuns: 100_000,
};

export interface NormalizerStats {
  spans: number;
  duplicates: number;
  steps: number;
  late: number;
  flushes: number;
  forcedFlushes: number;
  forgottenTraces: number;
}

interface TraceState {
  key: string;
  tenantId: string;
  spans: Map<string, SpanFacts>;
  /** Anchors of the drafts already released. */
  released: Set<string>;
  /** Pairs of released actions, kept so that a later span cannot pair their call or tool span again. */
  pins: Map<string, string>;
  /** The call keys in `pins`. */
  pinnedCalls: Set<string>;
  /** Spans with a step still to release or a call still unpaired: the ones mapped again at each release. */
  active: Map<string, SpanFacts>;
  maxEndUs: number;
  lastSpanAt: number;
  rootSeenAt?: number;
  flushed: boolean;
}

interface RunState {
  agentId: string;
  taskId: string;
  seq: number;
  lastTimeUs: number;
}

export class OtlpNormalizer {
  readonly options: NormalizerOptions;
  readonly stats: NormalizerStats = { spans: 0, duplicates: 0, steps: 0, late: 0, flushes: 0, forcedFlushes: 0, forgottenTraces: 0 };
  /** Open traces, least recently active first (re-inserted on every span). */
  private readonly open = new Map<string, TraceState>();
  /** Flushed traces, oldest flush first. */
  private readonly flushed = new Map<string, TraceState>();
  private readonly runs = new Map<string, RunState>();
  private retained = 0;

  constructor(private readonly clock: Clock, options: Partial<NormalizerOptions> = {}) {
    this.options = { ...DEFAULT_NORMALIZER_OPTIONS, ...options };
  }

  /** Adds spans of one tenant (any traces) and returns the steps they release, per trace in event order. */
  ingest(tenantId: string, spans: readonly SpanRecord[]): StepEvent[] {
    const byTrace = new Map<string, SpanRecord[]>();
    for (const span of spans) {
      const list = byTrace.get(span.traceId);
      if (list) list.push(span);
      else byTrace.set(span.traceId, [span]);
    }
    const out: StepEvent[] = [];
    const now = this.clock.now();
    for (const [traceId, traceSpans] of byTrace) {
      const key = `${tenantId}\u0000${traceId}`;
      const trace = this.traceFor(key, tenantId, out);
      let added = 0;
      for (const span of traceSpans) {
        if (trace.spans.has(span.spanId)) {
          this.stats.duplicates++;
          continue;
        }
        const facts = factsOf(span);
        trace.spans.set(span.spanId, facts);
        if (facts.role === 'llm' || facts.role === 'tool') trace.active.set(span.spanId, facts);
        added++;
        if (span.endUs > trace.maxEndUs) trace.maxEndUs = span.endUs;
        if (!span.parentSpanId && trace.rootSeenAt === undefined) trace.rootSeenAt = now;
      }
      this.stats.spans += added;
      this.retained += added;
      if (added === 0) continue;
      trace.lastSpanAt = now;
      if (trace.flushed) {
        this.release(trace, Number.POSITIVE_INFINITY, true, out);
      } else {
        // Re-insert: the open map stays ordered by last activity.
        this.open.delete(key);
        this.open.set(key, trace);
        if (trace.spans.size >= this.options.maxSpansPerTrace) {
          this.stats.forcedFlushes++;
          this.flush(trace, out);
        } else if (this.options.rootGraceMs <= 0 && trace.rootSeenAt !== undefined) {
          this.flush(trace, out);
        } else {
          this.release(trace, trace.maxEndUs - this.options.watermarkDelayMs * 1000, false, out);
        }
      }
    }
    this.enforceSpanBound(out);
    return out;
  }

  /** Flushes the traces that are due: idle for `idleFlushMs`, or `rootGraceMs` past their root span. */
  tick(): StepEvent[] {
    const out: StepEvent[] = [];
    const now = this.clock.now();
    for (const trace of [...this.open.values()]) {
      const idle = now - trace.lastSpanAt >= this.options.idleFlushMs;
      const rootDone = trace.rootSeenAt !== undefined && now - trace.rootSeenAt >= this.options.rootGraceMs;
      if (idle || rootDone) this.flush(trace, out);
    }
    return out;
  }

  /** Flushes every open trace (end of a file, shutdown). */
  flushAll(): StepEvent[] {
    const out: StepEvent[] = [];
    for (const trace of [...this.open.values()]) this.flush(trace, out);
    return out;
  }

  get openTraces(): number {
    return this.open.size;
  }

  get retainedSpans(): number {
    return this.retained;
  }

  private traceFor(key: string, tenantId: string, out: StepEvent[]): TraceState {
    const existing = this.open.get(key) ?? this.flushed.get(key);
    if (existing) return existing;
    if (this.open.size >= this.options.maxOpenTraces) {
      const oldest = this.open.values().next().value as TraceState;
      this.stats.forcedFlushes++;
      this.flush(oldest, out);
    }
    const trace: TraceState = { key, tenantId, spans: new Map(), released: new Set(), pins: new Map(), pinnedCalls: new Set(), active: new Map(), maxEndUs: 0, lastSpanAt: this.clock.now(), flushed: false };
    this.open.set(key, trace);
    return trace;
  }

  private flush(trace: TraceState, out: StepEvent[]): void {
    this.release(trace, Number.POSITIVE_INFINITY, true, out);
    this.open.delete(trace.key);
    trace.flushed = true;
    this.flushed.set(trace.key, trace);
    this.stats.flushes++;
  }

  private enforceSpanBound(out: StepEvent[]): void {
    while (this.retained > this.options.maxSpans) {
      const oldestFlushed = this.flushed.values().next().value as TraceState | undefined;
      if (oldestFlushed) {
        this.flushed.delete(oldestFlushed.key);
        this.retained -= oldestFlushed.spans.size;
        this.stats.forgottenTraces++;
        continue;
      }
      const oldestOpen = this.open.values().next().value as TraceState | undefined;
      if (!oldestOpen) break;
      this.stats.forcedFlushes++;
      this.flush(oldestOpen, out);
    }
  }

  /** Releases the drafts not released yet: up to `limitUs`, or all (flush, late spans). */
  private release(trace: TraceState, limitUs: number, all: boolean, out: StepEvent[]): void {
    const late = trace.flushed;
    if (trace.active.size === 0) return;
    if (!all) {
      // No step is earlier than its span's start: nothing to release before the watermark reaches one.
      let earliest = Number.POSITIVE_INFINITY;
      for (const span of trace.active.values()) if (span.startUs < earliest) earliest = span.startUs;
      if (earliest > limitUs) return;
    }
    for (const draft of mapTrace(trace.spans, trace.pins, trace.active.values())) {
      if (draft.anchors.some((a) => trace.released.has(a))) {
        // Its call or its tool span already went out in an action: that action covers this one too.
        this.settle(trace, draft);
        continue;
      }
      if (!all && (draft.timeUs > limitUs || !draft.identity.final)) continue;
      this.settle(trace, draft);
      out.push(this.toStep(trace.tenantId, draft, late));
    }
    for (const span of [...trace.active.values()]) {
      if (!isDone(trace, span)) continue;
      trace.active.delete(span.spanId);
      // Kept for runs and identities of later spans only: the content is dropped.
      trace.spans.set(span.spanId, skeletonOf(span));
    }
  }

  private settle(trace: TraceState, draft: StepDraft): void {
    for (const a of draft.anchors) trace.released.add(a);
    if (draft.pair) {
      trace.pins.set(draft.pair[0], draft.pair[1]);
      trace.pinnedCalls.add(draft.pair[1]);
    }
  }

  private toStep(tenantId: string, draft: StepDraft, flushedTrace: boolean): StepEvent {
    const runKey = `${tenantId}\u0000${draft.traceId}\u0000${draft.runId}`;
    let run = this.runs.get(runKey);
    if (run) {
      this.runs.delete(runKey);
    } else {
      // The identity is pinned at the run's first step, so a run never changes agent or task midway.
      run = { agentId: draft.identity.agentId, taskId: draft.identity.taskId, seq: 0, lastTimeUs: Number.NEGATIVE_INFINITY };
      if (this.runs.size >= this.options.maxRuns) this.runs.delete(this.runs.keys().next().value as string);
    }
    this.runs.set(runKey, run);
    const late = flushedTrace || draft.timeUs < run.lastTimeUs;
    const attributes: Record<string, string | boolean | string[]> = {
      'otel.trace_id': draft.traceId,
      'otel.span_id': draft.spanId,
      'otlp.convention': draft.convention,
    };
    if (draft.unknown.length > 0) attributes[UNKNOWN_KEY] = draft.unknown;
    if (late) {
      attributes['wayfinder.late'] = true;
      this.stats.late++;
    }
    const step = {
      schema: STEP_SCHEMA,
      eventId: draft.eventId,
      tenantId,
      ts: isoOf(draft.timeUs),
      agentId: run.agentId,
      taskId: run.taskId,
      runId: draft.runId,
      seq: run.seq++,
      ...draft.body,
      ...(draft.usage ? { usage: draft.usage } : {}),
      attributes,
    } as StepEvent;
    if (draft.timeUs > run.lastTimeUs) run.lastTimeUs = draft.timeUs;
    this.stats.steps++;
    return step;
  }
}

function skeletonOf(span: SpanFacts): SpanFacts {
  const { llm: _llm, tool: _tool, ...rest } = span;
  return rest;
}

/** Every step of the span went out and its calls are paired: mapping it again can give nothing new. */
function isDone(trace: TraceState, span: SpanFacts): boolean {
  const { released } = trace;
  if (span.role === 'tool') return released.has(`obs:${span.spanId}`) && (trace.pins.has(span.spanId) || released.has(`tool:${span.spanId}`));
  const llm = span.llm;
  if (!llm) return true;
  const messages = llm.outputKnown ? llm.texts.length : 1;
  for (let i = 0; i < messages; i++) if (!released.has(`msg:${span.spanId}:${i}`)) return false;
  for (let j = 0; j < llm.toolCalls.length; j++) if (!trace.pinnedCalls.has(`${span.spanId}:${j}`)) return false;
  return true;
}

function isoOf(timeUs: number): string {
  const ms = Math.floor(timeUs / 1000);
  return new Date(Number.isFinite(ms) && ms >= 0 && ms < 8.64e15 ? ms : 0).toISOString();
}
