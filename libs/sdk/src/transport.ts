/**
 * The port between WayfinderClient and where steps go: the gateway over HTTP, Kafka directly, or the
 * in-process guard. Every transport publishes batches of steps and delivers the agent's corrections.
 */
import type { CognitiveMap, Correction, StepEvent, TaskSpec } from '@wayfinder/contracts';

/** A step as a client sends it: the envelope is complete except `tenantId`, which the gateway may fill from the key. */
export type OutgoingStep = Omit<StepEvent, 'tenantId'> & { tenantId?: string };

/** A task as a client sends it: `schema`, `eventId`, `ts` and `tenantId` are filled where they are missing. */
export type OutgoingTask = Omit<TaskSpec, 'schema' | 'eventId' | 'ts' | 'tenantId'> & Partial<Pick<TaskSpec, 'schema' | 'eventId' | 'ts' | 'tenantId'>>;

export interface RejectedStep {
  /** Index in the batch handed to `publish`. */
  index: number;
  error: string;
  field?: string;
}

export interface PublishOutcome {
  accepted: number;
  rejected: RejectedStep[];
}

export interface CorrectionDelivery {
  correction: Correction;
  /** Resume point: pass as `after` to get what came after this correction. */
  cursor: string;
}

export interface SubscribeRequest {
  agentId: string;
  tenantId?: string;
  /** Deliver corrections after this cursor (absent: where `from` says). */
  after?: string;
  /**
   * Without `after`: `start` (default) delivers what the transport still keeps for the agent (the
   * gateway's 24 h log, the guard's memory of this process); `now` only what comes after the agent's log
   * as it stands when the subscription opens (over HTTP; the guard keeps nothing older than its process
   * and Kafka resumes its consumer group, so both treat it as `start`).
   */
  from?: 'start' | 'now';
  deliver: (delivery: CorrectionDelivery) => Promise<void>;
  /** Connection trouble the transport recovers from by itself (reconnects); for logging. */
  onTransportError?: (error: Error) => void;
}

export interface Subscription {
  /** The cursor of the last correction delivered (before the first: the position `now` stood for, once known). */
  readonly cursor: string | undefined;
  /**
   * Stops delivering and resolves once the delivery in progress, if any, has finished. (A transport's
   * own subscription must not be closed from inside its `deliver`; WayfinderClient's may.)
   */
  close(): Promise<void>;
}

export type AckOutcome = 'applied' | 'ignored';

export interface Transport {
  /** Sends one batch; resolves once the destination accepted it (rejected items are reported, not thrown). */
  publish(steps: readonly OutgoingStep[]): Promise<PublishOutcome>;
  /** Gives a task its cognitive map; resolves with the map where the transport builds it at once (HTTP, guard). */
  postTask(task: OutgoingTask): Promise<CognitiveMap | undefined>;
  subscribe(request: SubscribeRequest): Subscription;
  ack(agentId: string, correctionId: string, outcome: AckOutcome, tenantId?: string): Promise<void>;
  /** Where corrections are made in process (the guard): resolves once the handlers have had them. */
  settle?(): Promise<void>;
  close(): Promise<void>;
}
