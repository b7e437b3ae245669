export { decodeTraceRequestProtobuf, encodeTraceRequestProtobuf, encodeTraceResponseProtobuf, decodeTraceResponseProtobuf, encodeRpcStatusProtobuf, decodeRpcStatusProtobuf, rpcCodeOf } from './otlp-protobuf';
export { decodeOtlpBody, encodingOf, MAX_OTLP_BODY_BYTES, type OtlpBodyResult, type OtlpEncoding } from './otlp-body';
