export type * from './otlp-model';
export type { AttrValue, Attributes, RejectedSpan, SpanEventRecord, SpanRecord } from './span-record';
export { readTraceRequest, requestsByTrace, readAttributes, readAnyValue, unixNanoToMicros, MAX_SPANS_PER_REQUEST, type TraceRequestResult } from './otlp-request';
export { factsOf, argsOf, type SpanFacts, type SpanRole, type Convention, type LlmFacts, type ToolFacts, type ToolCallFact, type Recorded } from './span-facts';
export { mapTrace, eventIdOf, byEventTime, type StepDraft, type RunIdentity } from './trace-mapper';
export { isUnrecorded, unknownToken, REDACTED_MARKER, UNKNOWN_KEY } from './unrecorded';
export { OtlpNormalizer, DEFAULT_NORMALIZER_OPTIONS, type NormalizerOptions, type NormalizerStats } from './normalizer';
export type { Clock } from './clock';
