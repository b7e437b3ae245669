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
 */
import {
  context as otelContext,
  createContextKey,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { BatchHandler, Bus, Delivered, PublishOptions, SubscribeOptions } from '@wayfinder/bus';
import type { PayloadOf, TopicName } from '@wayfinder/contracts';

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
}

const setter: TextMapSetter<Record<string, string>> = { set: (carrier, key, value) => void (carrier[key] = value) };
const getter: TextMapGetter<Readonly<Record<string, string>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** The messages of the batch being handled, by what a payload published in response may point at. */
class CauseIndex {
  readonly byEventId = new Map<string, Context>();
  readonly byAgent = new Map<string, Context>();
  readonly byTask = new Map<string, Context>();

  add(payload: unknown, ctx: Context): void {
    if (payload === null || typeof payload !== 'object' || Buffer.isBuffer(payload)) return;
    const p = payload as Record<string, unknown>;
    if (typeof p['eventId'] === 'string') this.byEventId.set(p['eventId'], ctx);
    const subject = subjectOf(p);
    if (subject.agent) this.byAgent.set(subject.agent, ctx);
    if (subject.task) this.byTask.set(subject.task, ctx);
  }

  resolve(payload: unknown): Context | undefined {
    if (payload === null || typeof payload !== 'object') return undefined;
    const p = payload as Record<string, unknown>;
    const ids: unknown[] = [p['eventId']];
    if (Array.isArray(p['deviationIds'])) ids.push(...p['deviationIds']);
    if (Array.isArray(p['deviations'])) ids.push(...p['deviations'].map((d) => (d as Record<string, unknown> | null)?.['eventId']));
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      // The id itself, then the ids it extends: `<step>:<detector>:<level>` → `<step>:<detector>` → `<step>`.
      for (let end = id.length; end > 0; end = id.lastIndexOf(':', end - 1)) {
        const found = this.byEventId.get(end === id.length ? id : id.slice(0, end));
        if (found) return found;
      }
    }
    const subject = subjectOf(p);
    return (subject.agent && this.byAgent.get(subject.agent)) || (subject.task && this.byTask.get(subject.task)) || undefined;
  }
}

function subjectOf(p: Record<string, unknown>): { agent?: string; task?: string } {
  const inner = p['step'] && typeof p['step'] === 'object' ? (p['step'] as Record<string, unknown>) : p;
  const tenant = p['tenantId'];
  if (typeof tenant !== 'string') return {};
  return {
    agent: typeof inner['agentId'] === 'string' ? `${tenant}\u0000${inner['agentId']}` : undefined,
    task: typeof inner['taskId'] === 'string' ? `${tenant}\u0000${inner['taskId']}` : undefined,
  };
}

const CAUSES = createContextKey('wayfinder.traced-bus.causes');

export class TracedBus implements Bus {
  private readonly tracer: Tracer;
  private readonly system: string;
  private readonly sampleBelow: number;
  private readonly maxLinks: number;
  private readonly propagator = new W3CTraceContextPropagator();

  constructor(
    readonly inner: Bus,
    options: TracedBusOptions = {},
  ) {
    this.tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
    this.system = options.system ?? 'kafka';
    const ratio = Math.min(1, Math.max(0, options.eventSampleRatio ?? 1 / 64));
    this.sampleBelow = ratio * 0x1_0000_0000;
    this.maxLinks = options.maxLinks ?? 128;
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options: PublishOptions = {}): Promise<void> {
    if (payloads.length === 0) return this.inner.publish(topic, payloads, options);
    const active = otelContext.active();
    const causes = active.getValue(CAUSES) as CauseIndex | undefined;
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
      ...(payloads.length === 1 ? payloadAttributes(payloads[0]) : {}),
    };
    return this.tracer.startActiveSpan(`send ${topic}`, { kind: SpanKind.PRODUCER, attributes }, async (span) =>
      ended(span, () => this.inner.publish(topic, payloads, { ...options, headers: this.withContext(otelContext.active(), options.headers) })),
    );
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

  /** The trace context a delivered message carries, or undefined. */
  contextOf(headers: Readonly<Record<string, string>>): Context | undefined {
    if (!headers['traceparent']) return undefined;
    const extracted = this.propagator.extract(ROOT_CONTEXT, headers, getter);
    return trace.getSpanContext(extracted) ? extracted : undefined;
  }

  private async publishByCause<T extends TopicName>(
    topic: T,
    payloads: readonly PayloadOf<T>[],
    options: PublishOptions,
    causes: CauseIndex,
    fallback: Context,
  ): Promise<void> {
    // Each message carries the trace context of what caused it, in one publish call.
    // Many payloads share a cause (a batch of one agent's steps, one publish of a generator): inject once per context.
    const injected = new Map<Context, Record<string, string>>();
    const headers = payloads.map((p) => {
      const ctx = causes.resolve(p) ?? fallback;
      let carrier = injected.get(ctx);
      if (!carrier) injected.set(ctx, (carrier = this.withContext(ctx, undefined)));
      return carrier;
    });
    await this.inner.publish(topic, payloads, { ...options, headersFor: (i) => ({ ...options.headersFor?.(i), ...headers[i] }) });
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
      const parents = batch.map((d) => this.contextOf(d.headers));
      const links: Link[] = [];
      const seen = new Set<string>();
      for (const parent of parents) {
        const spanContext = parent && trace.getSpanContext(parent);
        if (!spanContext || seen.has(spanContext.spanId)) continue;
        seen.add(spanContext.spanId);
        if (links.length < this.maxLinks) links.push({ context: spanContext });
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
        const causes = new CauseIndex();
        const eventSpans: Span[] = [];
        for (let i = 0; i < batch.length; i++) {
          const parent = parents[i];
          const parentSpan = parent && trace.getSpanContext(parent);
          if (!parent || !parentSpan) continue;
          let ctx = parent;
          if (this.sampled(parentSpan)) {
            const span = this.eventSpan(topic, batch[i], parent, batchSpan);
            eventSpans.push(span);
            ctx = trace.setSpan(parent, span);
          }
          causes.add(batch[i].payload, ctx);
        }
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

  private eventSpan<P>(topic: string, delivered: Delivered<P>, parent: Context, batchSpan: Span): Span {
    const attributes: Attributes = {
      [SPAN_ATTRIBUTES.messagingSystem]: this.system,
      [SPAN_ATTRIBUTES.destination]: topic,
      [SPAN_ATTRIBUTES.operationType]: 'process',
      [SPAN_ATTRIBUTES.partition]: String(delivered.partition),
      [SPAN_ATTRIBUTES.offset]: delivered.offset,
      ...(delivered.key !== null ? { [SPAN_ATTRIBUTES.messageKey]: delivered.key } : {}),
      ...payloadAttributes(delivered.payload),
    };
    return this.tracer.startSpan(`process ${topic} event`, { kind: SpanKind.CONSUMER, attributes, links: [{ context: batchSpan.spanContext() }] }, parent);
  }
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
