export * from './bus';
export { decodePayload, encodePayload, deadLetterHeaders, type Decoded, type DeadLetterSource } from './codec';
export { InProcessBus, InProcessBroker, DEFAULT_QUEUE_CAPACITY, partitionOf, type InProcessBusOptions, type UnreadDeadLetterListener } from './in-process.bus';
export { KafkaBus, type KafkaBusOptions } from './kafka.bus';
export { createTopics, topicPlan, DLQ_RETENTION_MS, type CreateTopicsOptions, type CreateTopicsResult } from './topic-admin';
export { BusTransport, BatchEventPattern, type BusTransportOptions } from './nest/bus.transport';
export { listenOnBus, type HttpAppOnBusOptions, type ListeningHttpApp } from './nest/http-app-on-bus';
export { BusContext, BusBatchContext } from './nest/bus.context';
export { SettlingBus } from './settling.bus';
