export { decodeTraceRequestProtobuf, encodeTraceRequestProtobuf, encodeTraceResponseProtobuf, decodeTraceResponseProtobuf, encodeRpcStatusProtobuf, decodeRpcStatusProtobuf, rpcCodeOf } from './otlp-protobuf';
export { decodeOtlpBody, encodingOf, nestingProblem, MAX_OTLP_BODY_BYTES, MAX_OTLP_ANY_VALUE_DEPTH, MAX_OTLP_JSON_DEPTH, type OtlpBodyResult, type OtlpEncoding } from './otlp-body';
