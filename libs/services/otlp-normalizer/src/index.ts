export { OtlpExportHandler, rejectionMessage, type OtlpExportAnswer, type OtlpExportOptions } from './otlp-export.handler';
export { startOtlpNormalizer, type OtlpNormalizerServiceOptions, type RunningOtlpNormalizer } from './otlp-normalizer.service';
