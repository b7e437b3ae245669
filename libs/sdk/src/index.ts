/** @wayfinder/sdk: connect an agent to Wayfinder (DESIGN §12). */
export type { Correction, Deviation, Escalation, PolicyOverlay, StepEvent, TaskSpec, JsonValue } from '@wayfinder/contracts';
export * from './transport';
export * from './wayfinder-client';
export { StepRejectedError, type FlushResult, type RejectedOutgoingStep } from './step-buffer';
export * from './http/http-transport';
export * from './kafka/kafka-transport';
export * from './guard/guard-transport';
export * from './connect';
export * from './apply/apply-correction';
