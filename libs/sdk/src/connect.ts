/** One-line ways to get a WayfinderClient on each transport. */
import { GuardTransport, type GuardOptions } from './guard/guard-transport';
import { HttpTransport, type HttpTransportOptions } from './http/http-transport';
import { KafkaTransport, type KafkaTransportOptions } from './kafka/kafka-transport';
import { WayfinderClient, type WayfinderClientOptions } from './wayfinder-client';

type AgentOptions = Omit<WayfinderClientOptions, 'transport'>;

/** Over the gateway: `connectHttp({baseUrl: 'http://127.0.0.1:7070', apiKey, agentId, taskId})`. */
export function connectHttp(options: AgentOptions & HttpTransportOptions): WayfinderClient {
  return new WayfinderClient({ ...options, transport: new HttpTransport(options) });
}

/** Straight to Kafka (needs the kafkajs package): `connectKafka({brokers, tenantId, agentId, taskId})`. */
export function connectKafka(options: AgentOptions & KafkaTransportOptions): WayfinderClient {
  return new WayfinderClient({ ...options, transport: new KafkaTransport(options) });
}

/**
 * The in-process guard, no server: the same client, its steps navigated in this process. Each step is
 * sent on its own as soon as it is made; once `await client.flush()` returns, the handlers of
 * `onCorrection` have had every correction those steps caused.
 */
export function createGuard(options: AgentOptions & GuardOptions): WayfinderClient & { readonly guard: GuardTransport } {
  const guard = new GuardTransport(options);
  const client = new WayfinderClient({ batchSize: 1, flushIntervalMs: 0, ...options, transport: guard });
  return Object.assign(client, { guard });
}
