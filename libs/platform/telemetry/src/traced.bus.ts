/**
 * Traces across every bus hop (DESIGN §7–8, STYLE "a trace must cross every hop"), as a decorator of the
 * Bus port so that it works the same over Kafka and in process and neither adapter knows about tracing.
 *
 * - subscribe: one CONSUMER span per batch, linked to the producers' contexts (a batch mixes traces, so
 *   it cannot be any one's child). The handler gets the batch unchanged — batch handlers keep their one
 *   round trip per batch (DESIGN §7) — and runs inside the batch span with an index of the batch's
 *   messages by cause: event id, agent, task.
 * - publish inside a handler: each payload is traced to the message that caused it — the same event id
 *   (a localized step is its step), an event id it extends (`<step eventId>:<detector>:<level>` is a
 *   deviation of that step), a deviation it cites (`deviationIds`, an escalation's `deviations`), else
 *   the latest message of the same agent, else of the same task — and carries that message's context in
 *   the W3C `traceparent` header. So an agent's step, its localized step, the deviation it caused and the
 *   correction it got are one trace. Every message carries its own cause's context (per-message
 *   headers), and a publish stays one call to the inner bus.
 * - publish with no trace around it (an agent's step, a timer) starts the trace with a PRODUCER span.
 * - per-event spans are sampled: a message gets its own CONSUMER span (child of its producer, linked to
 *   its batch span, with gen_ai.agent.id, gen_ai.tool.name, tenant, detector…) when its trace id falls
 *   under `eventSampleRatio`, and what it causes continues from that span. The choice is a function of
 *   the trace id, so a sampled trace has its per-event spans on every hop and an unsampled one costs no
 *   span anywhere (DESIGN §7 "no per-event span on the hot path"). The span covers its batch's handling.
 * - propagation follows the same choice (`propagation: 'sampled'`, the default): what a handler publishes
 *   carries a traceparent only when the trace it continues is sampled. An unsampled trace records no span
 *   past its first hop anyway, and a header on every message was most of tracing's per-event cost on
 *   Kafka (encoded and decoded on every hop; BENCHMARKS.md). `propagation: 'all'` carries every trace.
 *
 * Per unsampled message the bus only parses its traceparent, for the batch span's links and the
 * sampling choice. The index of causes is built on the handler's first publish, a message's headers are
 * injected when a payload first points at it, and payload attributes are built for recording spans only.
 */
import {
  context as otelContext,
  createContextKey,
  INVALID_SPANID,
  INVALID_TRACEID,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';
import { parseTraceParent, TraceState, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { AssignmentListener, BatchHandler, Bus, Delivered, PublishOptions, SubscribeOptions } from '@wayfinder/bus';
import { compositeKey, type PayloadOf, type TopicName } from '@wayfinder/contracts';

export const TRACER_NAME = '@wayfinder/telemetry';

/** OpenTelemetry attribute names (GenAI and messaging conventions, still incubating upstream). */
export const SPAN_ATTRIBUTES = {
  agentId: 'gen_ai.agent.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  messagingSystem: 'messaging.system',
  destination: 'messaging.destination.name',
  operationType: 'messaging.operation.type',
  consumerGroup: 'messaging.consumer.group.name',
  batchCount: 'messaging.batch.message_count',
  partition: 'messaging.destination.partition.id',
  offset: 'messaging.kafka.offset',
  messageKey: 'messaging.kafka.message.key',
  tenant: 'wayfinder.tenant.id',
  taskId: 'wayfinder.task.id',
  runId: 'wayfinder.run.id',
  seq: 'wayfinder.step.seq',
  stepKind: 'wayfinder.step.kind',
  detector: 'wayfinder.deviation.detector',
  level: 'wayfinder.deviation.level',
  severity: 'wayfinder.correction.severity',
  action: 'wayfinder.correction.action',
} as const;

export interface TracedBusOptions {
  /** Default: the global tracer provider's tracer (a no-op until the SDK is started). */
  readonly tracer?: Tracer;
  /** `messaging.system` of the spans (default 'kafka'). */
  readonly system?: string;
  /** Share of traces whose messages get a per-event span, 0..1 (default 1/64). */
  readonly eventSampleRatio?: number;
  /** Producer links on a batch span (default 128; the count of all is an attribute). */
  readonly maxLinks?: number;
  /** Which traces a handler's publishes carry on: only sampled ones (default), or all. */
  readonly propagation?: 'sampled' | 'all';
}

const setter: TextMapSetter<Record<string, string>> = { set: (carrier, key, value) => void (carrier[key] = value) };

/** What BatchCauses.headersOf answers for a payload that points at no message of the batch. */
const NO_CAUSE = Symbol('no cause in the batch');

/**
 * The messages of the batch being handled, by what a payload published in response may point at, each
 * with the span context what it causes continues from (its per-event span's, else its producer's).
 * Indexed on the first lookup: a handler that publishes nothing pays nothing per message for it.
 */
class BatchCauses {
  private byEventId?: Map<string, number>;
  private bySubject?: { agents: Map<string, number>; tasks: Map<string, number> };
  private readonly headers = new Map<number, Record<string, string>>();

  constructor(
    private readonly batch: readonly Delivered<unknown>[],
    private readonly causes: readonly (SpanContext | undefined)[],
    private readonly inject: (spanContext: SpanContext) => Record<string, string>,
    private readonly propagates: (spanContext: SpanContext) => boolean,
  ) {}

  /**
   * The trace headers of the message `payload` points at; undefined when that message carried no trace
   * or its trace is not propagated; NO_CAUSE when it points at nothing in the batch.
   */
  headersOf(payload: unknown): Record<string, string> | undefined | typeof NO_CAUSE {
    const i = this.resolve(payload);
    if (i === undefined) return NO_CAUSE;
    const cause = this.causes[i];
    if (!cause || !this.propagates(cause)) return undefined;
    let carrier = this.headers.get(i);
    if (!carrier) this.headers.set(i, (carrier = this.inject(cause)));
    return carrier;
  }

  private resolve(payload: unknown): number | undefined {
    if (payload === null || typeof payload !== 'object') return undefined;
    const p = payload as Record<string, unknown>;
    const byEventId = (this.byEventId ??= this.indexByEventId());
    // Event ids are the tenants' own: only a message of the payload's own tenant can be its cause, so no
    // tenant's output ever carries (or links into) another tenant's trace.
    const tenant = p['tenantId'];
    if (typeof tenant !== 'string') return undefined;
    const ids: unknown[] = [p['eventId']];
    if (Array.isArray(p['deviationIds'])) ids.push(...p['deviationIds']);
    if (Array.isArray(p['deviations'])) ids.push(...p['deviations'].map((d) => (d as Record<string, unknown> | null)?.['eventId']));
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      // The id itself, then the ids it extends: `<step>:<detector>:<level>` → `<step>:<detector>` → `<step>`.
      for (let end = id.length; end > 0; end = id.lastIndexOf(':', end - 1)) {
        const found = byEventId.get(compositeKey(tenant, end === id.length ? id : id.slice(0, end)));
        if (found !== undefined) return found;
      }
    }
    const subject = subjectOf(p);
    if (!subject.agent && !subject.task) return undefined;
    const { agents, tasks } = (this.bySubject ??= this.indexBySubject());
    return (subject.agent !== undefined ? agents.get(subject.agent) : undefined) ?? (subject.task !== undefined ? tasks.get(subject.task) : undefined);
  }

  /** Later messages win: the latest message of an id, agent or task is its cause. Keys: (tenant, event id). */
  private indexByEventId(): Map<string, number> {
    const index = new Map<string, number>();
    this.eachTraced((p, i) => {
      if (typeof p['eventId'] === 'string' && typeof p['tenantId'] === 'string') index.set(compositeKey(p['tenantId'], p['eventId']), i);
    });
    return index;
  }

  private indexBySubject(): { agents: Map<string, number>; tasks: Map<string, number> } {
    const agents = new Map<string, number>();
    const tasks = new Map<string, number>();
    this.eachTraced((p, i) => {
      const subject = subjectOf(p);
      if (subject.agent) agents.set(subject.agent, i);
      if (subject.task) tasks.set(subject.task, i);
    });
    return { agents, tasks };
  }

  /** The object payloads that carried a trace context, in order. */
  private eachTraced(visit: (payload: Record<string, unknown>, index: number) => void): void {
    for (let i = 0; i < this.batch.length; i++) {
      const payload = this.batch[i].payload;
      if (!this.causes[i] || payload === null || typeof payload !== 'object' || Buffer.isBuffer(payload)) continue;
      visit(payload as Record<string, unknown>, i);
    }
  }
}

function subjectOf(p: Record<string, unknown>): { agent?: string; task?: string } {
  const inner = p['step'] && typeof p['step'] === 'object' ? (p['step'] as Record<string, unknown>) : p;
  const tenant = p['tenantId'];
  if (typeof tenant !== 'string') return {};
  // Length-prefixed (compositeKey): tenant "a\u0000b" with agent "c" is not tenant "a" with agent "b\u0000c".
  return {
    agent: typeof inner['agentId'] === 'string' ? compositeKey(tenant, 'agent', inner['agentId']) : undefined,
    task: typeof inner['taskId'] === 'string' ? compositeKey(tenant, 'task', inner['taskId']) : undefined,
  };
}

const CAUSES = createContextKey('wayfinder.traced-bus.causes');

export class TracedBus implements Bus {
  private readonly tracer: Tracer;
  private readonly system: string;
  private readonly sampleBelow: number;
  private readonly maxLinks: number;
  private readonly propagateAll: boolean;
  private readonly propagator = new W3CTraceContextPropagator();
  /** The inner bus's rebalances, when it has any (Kafka). */
  readonly onAssignment?: (listener: AssignmentListener) => void;

  constructor(
    readonly inner: Bus,
    options: TracedBusOptions = {},
  ) {
    this.tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
    this.system = options.system ?? 'kafka';
    const ratio = Math.min(1, Math.max(0, options.eventSampleRatio ?? 1 / 64));
    this.sampleBelow = ratio * 0x1_0000_0000;
    this.maxLinks = options.maxLinks ?? 128;
    this.propagateAll = options.propagation === 'all';
    if (inner.onAssignment) this.onAssignment = inner.onAssignment.bind(inner);
  }


  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options: PublishOptions = {}): Promise<void> {
    if (payloads.length === 0) return this.inner.publish(topic, payloads, options);
    const active = otelContext.active();
    const causes = active.getValue(CAUSES) as BatchCauses | undefined;
    if (causes) return this.publishByCause(topic, payloads, options, causes, active);
    if (trace.getSpanContext(active)) {
      return this.inner.publish(topic, payloads, { ...options, headers: this.withContext(active, options.headers) });
    }
    // Nothing is being handled: this publish starts the trace.
    const attributes: Attributes = {
      [SPAN_ATTRIBUTES.messagingSystem]: this.system,
      [SPAN_ATTRIBUTES.destination]: topic,
      [SPAN_ATTRIBUTES.operationType]: 'send',
      [SPAN_ATTRIBUTES.batchCount]: payloads.length,
    };
    return this.tracer.startActiveSpan(`send ${topic}`, { kind: SpanKind.PRODUCER, attributes }, async (span) => {
      if (payloads.length === 1 && span.isRecording()) span.setAttributes(payloadAttributes(payloads[0]));
      return ended(span, () => this.inner.publish(topic, payloads, { ...options, headers: this.withContext(otelContext.active(), options.headers) }));
    });
  }

  publishRaw(topic: string, key: string | null, value: Buffer | string, headers?: Readonly<Record<string, string>>): Promise<void> {
    const active = otelContext.active();
    const carried = trace.getSpanContext(active) && !headers?.['traceparent'] ? this.withContext(active, headers) : headers;
    return this.inner.publishRaw(topic, key, value, carried);
  }

  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void {
    this.inner.subscribe(topic, this.traced(topic, handler, options), options);
  }

  subscribeRaw(topic: string, handler: BatchHandler<Buffer>, options: SubscribeOptions): void {
    this.inner.subscribeRaw(topic, this.traced(topic, handler, options), options);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  stop(): Promise<void> {
    return this.inner.stop();
  }

  private async publishByCause<T extends TopicName>(
    topic: T,
    payloads: readonly PayloadOf<T>[],
    options: PublishOptions,
    causes: BatchCauses,
    active: Context,
  ): Promise<void> {
    // Each message carries the trace context of what caused it, in one publish call; a payload that
    // points at nothing in the batch continues the batch span. Unpropagated traces carry nothing.
    let fallback: Record<string, string> | undefined | null = null;
    const batchContext = () => {
      const span = trace.getSpanContext(active);
      return span && (this.propagateAll || this.sampled(span)) ? this.withContext(active, undefined) : undefined;
    };
    const headers = payloads.map((p) => {
      const found = causes.headersOf(p);
      if (found !== NO_CAUSE) return found;
      if (fallback === null) fallback = batchContext();
      return fallback;
    });
    const own = options.headersFor;
    await this.inner.publish(topic, payloads, { ...options, headersFor: own ? (i) => ({ ...own(i), ...headers[i] }) : (i) => headers[i] });
  }

  private withContext(ctx: Context, headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
    const carrier: Record<string, string> = { ...headers };
    this.propagator.inject(ctx, carrier, setter);
    return carrier;
  }

  private sampled(spanContext: SpanContext): boolean {
    // The low 32 bits of a W3C trace id are random: comparing them to a threshold samples by ratio.
    return Number.parseInt(spanContext.traceId.slice(-8), 16) < this.sampleBelow;
  }

  private traced<P>(topic: string, handler: BatchHandler<P>, options: SubscribeOptions): BatchHandler<P> {
    return async (batch) => {
      const parents = batch.map((d) => remoteParentOf(d.headers));
      const links: Link[] = [];
      const seen = new Set<string>();
      for (const parent of parents) {
        if (!parent || seen.has(parent.spanId)) continue;
        seen.add(parent.spanId);
        if (links.length < this.maxLinks) links.push({ context: parent });
      }
      const attributes: Attributes = {
        [SPAN_ATTRIBUTES.messagingSystem]: this.system,
        [SPAN_ATTRIBUTES.destination]: topic,
        [SPAN_ATTRIBUTES.operationType]: 'process',
        [SPAN_ATTRIBUTES.consumerGroup]: options.groupId,
        [SPAN_ATTRIBUTES.batchCount]: batch.length,
        [SPAN_ATTRIBUTES.partition]: String(batch[0]?.partition ?? ''),
        'wayfinder.batch.producer_contexts': seen.size,
      };
      // A batch span is a root of its own: it belongs to no single producer's trace.
      await this.tracer.startActiveSpan(`process ${topic}`, { kind: SpanKind.CONSUMER, links, attributes, root: true }, ROOT_CONTEXT, async (batchSpan) => {
        // What each message causes continues from its per-event span if sampled, else from its producer.
        const continued = parents.slice();
        const eventSpans: Span[] = [];
        for (let i = 0; i < batch.length; i++) {
          const parent = parents[i];
          if (!parent || !this.sampled(parent)) continue;
          const span = this.eventSpan(topic, batch[i], parent, batchSpan);
          eventSpans.push(span);
          continued[i] = span.spanContext();
        }
        const causes = new BatchCauses(
          batch,
          continued,
          (spanContext) => this.withContext(trace.setSpanContext(ROOT_CONTEXT, spanContext), undefined),
          (spanContext) => this.propagateAll || this.sampled(spanContext),
        );
        const handling = otelContext.active().setValue(CAUSES, causes);
        let failure: unknown;
        try {
          await ended(batchSpan, () => otelContext.with(handling, () => handler(batch)));
        } catch (error) {
          failure = error;
          throw error;
        } finally {
          for (const span of eventSpans) {
            if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: String(failure instanceof Error ? failure.message : failure) });
            span.end();
          }
        }
      });
    };
  }

  private eventSpan<P>(topic: string, delivered: Delivered<P>, parent: SpanContext, batchSpan: Span): Span {
    const attributes: Attributes = {
      [SPAN_ATTRIBUTES.messagingSystem]: this.system,
      [SPAN_ATTRIBUTES.destination]: topic,
      [SPAN_ATTRIBUTES.operationType]: 'process',
      [SPAN_ATTRIBUTES.partition]: String(delivered.partition),
      [SPAN_ATTRIBUTES.offset]: delivered.offset,
      ...(delivered.key !== null ? { [SPAN_ATTRIBUTES.messageKey]: delivered.key } : {}),
    };
    const links = [{ context: batchSpan.spanContext() }];
    const span = this.tracer.startSpan(`process ${topic} event`, { kind: SpanKind.CONSUMER, attributes, links }, trace.setSpanContext(ROOT_CONTEXT, parent));
    if (span.isRecording()) span.setAttributes(payloadAttributes(delivered.payload));
    return span;
  }
}

/**
 * The span context a delivered message carries, as the W3C propagator extracts it, without the Context
 * and the wrapping span `extract` makes (per message, they were most of the cost of an unsampled one).
 */
export function remoteParentOf(headers: Readonly<Record<string, string>>): SpanContext | undefined {
  const traceparent = headers['traceparent'];
  if (!traceparent) return undefined;
  const parent = plainTraceParent(traceparent) ?? remote(parseTraceParent(traceparent));
  if (!parent) return undefined;
  const tracestate = headers['tracestate'];
  if (tracestate) parent.traceState = new TraceState(tracestate);
  return parent;
}

/**
 * The common traceparent (version 00, valid ids, nothing around it) read by slicing, without the
 * capture groups of the general parser; undefined for any other header, which that parser decides.
 */
const PLAIN_TRACEPARENT = /^00-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

function plainTraceParent(traceparent: string): SpanContext | undefined {
  if (!PLAIN_TRACEPARENT.test(traceparent)) return undefined;
  const traceId = traceparent.slice(3, 35);
  const spanId = traceparent.slice(36, 52);
  if (traceId === INVALID_TRACEID || spanId === INVALID_SPANID) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(traceparent.slice(53), 16), isRemote: true };
}

function remote(spanContext: SpanContext | null): SpanContext | null {
  if (spanContext) spanContext.isRemote = true;
  return spanContext;
}

async function ended(span: Span, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Span attributes of a payload of the registry: who (agent, tenant, task), and what (tool, detector…). */
export function payloadAttributes(payload: unknown): Attributes {
  if (payload === null || typeof payload !== 'object' || Buffer.isBuffer(payload)) return {};
  const p = payload as Record<string, unknown>;
  const inner = (p['step'] && typeof p['step'] === 'object' ? (p['step'] as Record<string, unknown>) : p) as Record<string, unknown>;
  const out: Attributes = {};
  const put = (name: string, value: unknown) => {
    if (typeof value === 'string' || typeof value === 'number') out[name] = value;
  };
  put(SPAN_ATTRIBUTES.tenant, p['tenantId']);
  put(SPAN_ATTRIBUTES.agentId, inner['agentId']);
  put(SPAN_ATTRIBUTES.taskId, inner['taskId']);
  put(SPAN_ATTRIBUTES.runId, inner['runId']);
  put(SPAN_ATTRIBUTES.seq, inner['seq'] ?? p['atSeq']);
  put(SPAN_ATTRIBUTES.stepKind, inner['kind']);
  const body = (inner['action'] ?? inner['observation']) as Record<string, unknown> | undefined;
  if (body && typeof body === 'object') {
    put(SPAN_ATTRIBUTES.toolName, body['tool']);
    put(SPAN_ATTRIBUTES.toolCallId, body['callId']);
  }
  put(SPAN_ATTRIBUTES.detector, p['detector']);
  put(SPAN_ATTRIBUTES.level, p['level']);
  put(SPAN_ATTRIBUTES.severity, p['severity']);
  if (typeof p['action'] === 'string') put(SPAN_ATTRIBUTES.action, p['action']);
  return out;
}
