/**
 * WayfinderClient: what an agent holds. Step helpers build `wayfinder.step.v1` events (numbering `seq`,
 * filling ids and timestamps), a bounded buffer sends them in batches through a Transport (the gateway,
 * Kafka or the in-process guard: the same interface for all three), and corrections come back through
 * `onCorrection`, in order, once each.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { CognitiveMap, Correction, JsonValue, StepAttributes, StepEvent } from '@wayfinder/contracts';
import { StepBuffer, type FlushResult } from './step-buffer';
import type { AckOutcome, CorrectionDelivery, OutgoingStep, OutgoingTask, Subscription, Transport } from './transport';

export interface WayfinderClientOptions {
  transport: Transport;
  agentId: string;
  taskId: string;
  /** Required on Kafka; over HTTP the key's tenant fills it. */
  tenantId?: string;
  runId?: string;
  /** The seq of the first step (default 0); a resumed agent continues its numbering. */
  firstSeq?: number;
  /** Steps per request (default 100). */
  batchSize?: number;
  /** Steps buffered before the helpers wait for a batch to go out (default 1,000). */
  maxBuffered?: number;
  /** A partial batch goes out after this many ms (default 200; 0 sends every step at once). */
  flushIntervalMs?: number;
  /** Background trouble: a batch that could not be sent yet (kept), steps the destination rejected. Default: console.error. */
  onError?: (error: Error) => void;
}

export interface StepOptions {
  usage?: StepEvent['usage'];
  /** Small free-form attributes; `delegateTo` / `subtask` mark a hand-over to another agent (cross_agent_cycle). */
  attributes?: StepAttributes;
}

export interface ObservationOptions extends StepOptions {
  content?: JsonValue;
  ok?: boolean;
  error?: string;
  callId?: string;
  status?: string | number;
}

export type CorrectionHandler = (correction: Correction, cursor: string) => void | Promise<void>;

type Filled = 'schema' | 'eventId' | 'tenantId' | 'ts' | 'agentId' | 'taskId' | 'runId' | 'seq' | 'usage' | 'attributes';
/** A step's kind and body, e.g. `{kind: 'plan', plan: {subgoals}}`: what `step()` takes. */
export type StepBody = StepEvent extends unknown ? (StepEvent extends infer S ? (S extends StepEvent ? Omit<S, Filled> : never) : never) : never;

const MAX_SEEN_CORRECTIONS = 1_000;

/** Which subscription's handler is running, so that a handler closing its own subscription does not wait for itself. */
const handlerOf = new AsyncLocalStorage<object>();

export class WayfinderClient {
  readonly agentId: string;
  readonly taskId: string;
  readonly tenantId: string | undefined;
  readonly runId: string | undefined;
  private nextSeq: number;
  private readonly buffer: StepBuffer;
  private readonly subscriptions = new Set<Subscription>();
  private readonly onError: (error: Error) => void;

  constructor(private readonly options: WayfinderClientOptions) {
    this.agentId = options.agentId;
    this.taskId = options.taskId;
    this.tenantId = options.tenantId;
    this.runId = options.runId;
    this.nextSeq = options.firstSeq ?? 0;
    this.onError = options.onError ?? ((error) => console.error(`wayfinder: ${error.message}`));
    this.buffer = new StepBuffer({
      send: (steps) => options.transport.publish(steps),
      batchSize: options.batchSize ?? 100,
      maxBuffered: options.maxBuffered ?? 1_000,
      flushIntervalMs: options.flushIntervalMs ?? 200,
      onError: this.onError,
    });
  }

  /** The seq of the latest step built, or -1 before the first. */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Steps waiting to be sent. */
  get buffered(): number {
    return this.buffer.size;
  }

  /**
   * Gives the task a cognitive map (its goal, optional milestones and anchors), so that steps are
   * localized on it; `taskId` defaults to this client's. Resolves with the map over HTTP and on the guard.
   */
  task(task: Omit<OutgoingTask, 'taskId'> & { taskId?: string }): Promise<CognitiveMap | undefined> {
    return this.options.transport.postTask({ ...task, taskId: task.taskId ?? this.taskId, ...(this.tenantId && !task.tenantId ? { tenantId: this.tenantId } : {}) });
  }

  /** Any step body (`{kind: 'plan', plan: {...}}` etc.); resolves with its seq once it is buffered. */
  async step(body: StepBody, options: StepOptions = {}): Promise<number> {
    const seq = this.nextSeq++;
    const step = {
      schema: 'wayfinder.step.v1',
      eventId: randomUUID(),
      ts: new Date().toISOString(),
      agentId: this.agentId,
      taskId: this.taskId,
      seq,
      ...(this.tenantId === undefined ? {} : { tenantId: this.tenantId }),
      ...(this.runId === undefined ? {} : { runId: this.runId }),
      ...(options.usage ? { usage: options.usage } : {}),
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...body,
    } as OutgoingStep;
    await this.buffer.push(step);
    return seq;
  }

  /** A tool call as issued; resolves with its call id (the one given, or a new one). */
  async action(tool: string, args: Record<string, JsonValue> = {}, options: StepOptions & { callId?: string } = {}): Promise<string> {
    const callId = options.callId ?? `call-${randomUUID()}`;
    await this.step({ kind: 'action', action: { tool, args, callId } }, options);
    return callId;
  }

  /** A tool's result; without `callId` it belongs to the newest pending action of the same tool. */
  async observation(tool: string, options: ObservationOptions = {}): Promise<number> {
    const { content, error, callId, status } = options;
    const ok = options.ok ?? error === undefined;
    const observation = {
      tool,
      ok,
      ...(callId === undefined ? {} : { callId }),
      ...(content === undefined ? {} : { content }),
      ...(error === undefined ? {} : { error }),
      ...(status === undefined ? {} : { status }),
    };
    return this.step({ kind: 'observation', observation }, options);
  }

  async message(text: string, role: 'assistant' | 'user' | 'system' | 'tool' = 'assistant', options: StepOptions & { type?: 'thought' | 'output' } = {}): Promise<number> {
    return this.step({ kind: 'message', message: { role, text, ...(options.type ? { type: options.type } : {}) } }, options);
  }

  async milestone(id: string, status: 'started' | 'done' | 'failed', evidence?: string, options: StepOptions = {}): Promise<number> {
    return this.step({ kind: 'milestone', milestone: { id, status, ...(evidence === undefined ? {} : { evidence }) } }, options);
  }

  async feedback(text: string, options: StepOptions = {}): Promise<number> {
    return this.step({ kind: 'feedback', feedback: { text } }, options);
  }

  async compaction(reason: string, options: StepOptions = {}): Promise<number> {
    return this.step({ kind: 'compaction', compaction: { reason } }, options);
  }

  async plan(subgoals: Array<{ id: string; text: string; anchors?: string[] }>, options: StepOptions = {}): Promise<number> {
    return this.step({ kind: 'plan', plan: { subgoals } }, options);
  }

  /**
   * Sends every buffered step; resolves with what the destination accepted and rejected. On the guard,
   * also once the correction handlers have had what those steps caused (not when called from a handler,
   * which would wait for itself).
   */
  async flush(): Promise<FlushResult> {
    const result = await this.buffer.flush();
    if (this.options.transport.settle && handlerOf.getStore() === undefined) await this.options.transport.settle();
    return result;
  }

  /**
   * Calls `handler` with each correction for this agent, in order and once each (a reconnect that
   * delivers one again is absorbed). It starts from now: corrections already logged for this agent id
   * (an earlier run's, over HTTP) are not delivered, so subscribe before the first step. `after` resumes
   * from a cursor the handler was given earlier; `fromStart: true` replays what the transport still
   * keeps (the gateway keeps 24 h). With a `runId`, corrections of the agent's other runs are skipped,
   * except a freeze: it stops the agent whatever run it came from, so a standing one (the gateway's `now`
   * starts just before it) reaches a restarted agent first, until a human resumes it.
   */
  onCorrection(handler: CorrectionHandler, options: { after?: string; fromStart?: boolean } = {}): Subscription {
    const seen = new Set<string>();
    const token = {};
    const subscription = this.options.transport.subscribe({
      agentId: this.agentId,
      tenantId: this.tenantId,
      after: options.after,
      from: options.fromStart ? 'start' : 'now',
      deliver: async ({ correction, cursor }: CorrectionDelivery) => {
        if (this.runId !== undefined && correction.runId !== this.runId && correction.action !== 'freeze') return;
        if (seen.has(correction.eventId)) return;
        seen.add(correction.eventId);
        if (seen.size > MAX_SEEN_CORRECTIONS) seen.delete(seen.values().next().value as string);
        try {
          await handlerOf.run(token, () => handler(correction, cursor));
        } catch (error) {
          // A freeze thrown by applyCorrection inside a handler is the agent's to catch where it runs; here it is reported.
          this.onError(error instanceof Error ? error : new Error(String(error)));
        }
      },
      onTransportError: this.onError,
    });
    this.subscriptions.add(subscription);
    return {
      get cursor() {
        return subscription.cursor;
      },
      close: async () => {
        this.subscriptions.delete(subscription);
        const closing = subscription.close();
        // From inside its own handler: the delivery ends when the handler returns; waiting would deadlock.
        if (handlerOf.getStore() !== token) await closing;
      },
    };
  }

  /** Tells Wayfinder the agent applied (or ignored) a correction. */
  ack(correction: Correction | string, outcome: AckOutcome = 'applied'): Promise<void> {
    const id = typeof correction === 'string' ? correction : correction.eventId;
    return this.options.transport.ack(this.agentId, id, outcome, this.tenantId);
  }

  /** Flushes, stops the correction streams and closes the transport. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.buffer.close();
      for (const subscription of [...this.subscriptions]) await subscription.close();
      this.subscriptions.clear();
      await this.options.transport.close();
    }
  }
}
