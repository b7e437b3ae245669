/**
 * The in-process guard (DESIGN §12): the fleet's navigation — localization on the task's map, the
 * detection core and the correction ladder (libs/domain/navigation, as `wayfinder replay` runs it) —
 * inside the agent's process, with no server. It is a Transport, so an agent switches between the
 * guard, the gateway and Kafka by changing one constructor argument.
 */
import type { CognitiveMap, Correction, Deviation, Escalation, PolicyOverlay } from '@wayfinder/contracts';
import { TaskSpec as TaskSpecSchema } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { validatePolicy } from '@wayfinder/detection';
import { createNavigator, type Navigator } from '@wayfinder/navigation';
import { checkStep } from '../validate-step';
import type { AckOutcome, OutgoingStep, OutgoingTask, PublishOutcome, RejectedStep, SubscribeRequest, Subscription, Transport } from '../transport';

export interface GuardOptions {
  /** The tenant of steps that name none (default `local`, as the embedded gateway's local operator). */
  tenantId?: string;
  /** A policy overlay, as the `policy` of a `PUT /v1/policy` body (profile and any settings); validated. */
  policy?: PolicyOverlay;
  /** Tasks whose cognitive maps steps are localized on (their `tenantId` may be omitted). */
  tasks?: readonly OutgoingTask[];
  /** Corrections kept per agent for late subscribers (default 100). */
  keepPerAgent?: number;
  onDeviation?: (deviation: Deviation) => void;
  onEscalation?: (escalation: Escalation) => void;
}

interface Listener {
  agentId: string;
  tenantId: string;
  deliver: SubscribeRequest['deliver'];
  chain: Promise<void>;
  state: { cursor: string | undefined };
  closed: boolean;
  onTransportError?: (error: Error) => void;
}

export class GuardTransport implements Transport {
  private readonly navigator: Navigator;
  private readonly tenantId: string;
  private readonly kept = new Map<string, Array<{ correction: Correction; cursor: string }>>();
  private readonly listeners = new Set<Listener>();
  private readonly acks = new Map<string, AckOutcome>();
  private sequence = 0;

  constructor(private readonly options: GuardOptions = {}) {
    this.tenantId = options.tenantId ?? 'local';
    const validation = validatePolicy(options.policy ?? {});
    if (!validation.ok) throw new Error(`wayfinder guard: invalid policy: ${validation.error}`);
    this.navigator = createNavigator({ policy: validation.policy, corrections: true });
    for (const task of options.tasks ?? []) this.addTask(task);
  }

  /** Installs a task's cognitive map (as `POST /v1/tasks` does); throws naming the field when it is not valid. */
  addTask(task: OutgoingTask): CognitiveMap {
    const spec = TaskSpecSchema.parse({ schema: 'wayfinder.task.v1', eventId: `task-${task.taskId}`, ts: new Date(0).toISOString(), tenantId: this.tenantId, ...task });
    const parsed = parseTask(spec);
    if (!parsed.ok) throw new Error(`wayfinder guard: task ${spec.taskId}: ${parsed.error.message}`);
    this.navigator.setMap(spec.tenantId, parsed.value);
    return parsed.value;
  }

  async postTask(task: OutgoingTask): Promise<CognitiveMap> {
    return this.addTask(task);
  }

  async publish(steps: readonly OutgoingStep[]): Promise<PublishOutcome> {
    const rejected: RejectedStep[] = [];
    let accepted = 0;
    steps.forEach((raw, index) => {
      const checked = checkStep(raw, this.tenantId);
      if (!checked.ok) return void rejected.push({ index, error: checked.error, field: checked.field });
      accepted++;
      const result = this.navigator.onStep(checked.step);
      for (const deviation of result.deviations) this.options.onDeviation?.(deviation);
      for (const escalation of result.escalations) this.options.onEscalation?.(escalation);
      for (const correction of result.corrections) this.emit(correction);
    });
    return { accepted, rejected };
  }

  /** Resolves once the handlers have had every correction made so far (WayfinderClient.flush waits for it). */
  async settle(): Promise<void> {
    await Promise.all([...this.listeners].map((l) => l.chain));
  }

  subscribe(request: SubscribeRequest): Subscription {
    const listener: Listener = {
      agentId: request.agentId,
      tenantId: request.tenantId ?? this.tenantId,
      deliver: request.deliver,
      chain: Promise.resolve(),
      state: { cursor: request.after },
      closed: false,
      onTransportError: request.onTransportError,
    };
    const after = request.after === undefined ? -1 : Number(request.after);
    for (const kept of this.kept.get(agentKey(listener.tenantId, listener.agentId)) ?? []) {
      if (Number(kept.cursor) > after) this.deliverTo(listener, kept);
    }
    this.listeners.add(listener);
    return {
      get cursor() {
        return listener.state.cursor;
      },
      close: async () => {
        this.listeners.delete(listener);
        listener.closed = true;
        await listener.chain;
      },
    };
  }

  async ack(agentId: string, correctionId: string, outcome: AckOutcome, tenantId?: string): Promise<void> {
    const known = (this.kept.get(agentKey(tenantId ?? this.tenantId, agentId)) ?? []).some((k) => k.correction.eventId === correctionId);
    if (!known) throw new Error(`wayfinder guard: no correction ${correctionId} for agent ${agentId}`);
    this.acks.set(correctionId, outcome);
  }

  /** What the agent said it did with a correction (undefined: not acknowledged). */
  ackOf(correctionId: string): AckOutcome | undefined {
    return this.acks.get(correctionId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((l) => l.chain));
    this.listeners.clear();
  }

  private emit(correction: Correction): void {
    const key = agentKey(correction.tenantId, correction.agentId);
    const entry = { correction, cursor: String(this.sequence++) };
    const list = this.kept.get(key) ?? [];
    list.push(entry);
    if (list.length > (this.options.keepPerAgent ?? 100)) list.shift();
    this.kept.set(key, list);
    for (const listener of this.listeners) {
      if (agentKey(listener.tenantId, listener.agentId) === key) this.deliverTo(listener, entry);
    }
  }

  private deliverTo(listener: Listener, entry: { correction: Correction; cursor: string }): void {
    listener.chain = listener.chain
      .then(async () => {
        if (listener.closed) return;
        await listener.deliver(entry);
        listener.state.cursor = entry.cursor;
      })
      .catch((error: Error) => listener.onTransportError?.(error));
  }
}

function agentKey(tenantId: string, agentId: string): string {
  return `${tenantId}\u0000${agentId}`;
}
