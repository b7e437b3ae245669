export { startTelemetry, telemetryPlan, ATTR_SERVICE_INSTANCE_ID, type Telemetry, type TelemetryOptions } from './telemetry.sdk';
export { TracedBus, TRACER_NAME, SPAN_ATTRIBUTES, payloadAttributes, type TracedBusOptions } from './traced.bus';
export {
  NavigationMetrics,
  navigationMetrics,
  METER_NAME,
  type LagReading,
  type NavigationMetricsOptions,
  type SelfHealCounts,
} from './navigation.metrics';
export { METRICS, prometheusName, prometheusSeriesNames, LATENCY_BUCKETS_S, STAGNATION_BUCKETS_S, type MetricSpec, type InstrumentKind } from './metric-names';
export { metricsToJson, JsonFileMetricExporter, FanOutMetricExporter, type MetricJson, type MetricPointJson, type MetricsFileJson } from './metrics-file.exporter';
export { monitorDeadLetters, type DeadLetterMonitorOptions } from './dead-letter.monitor';
export { KafkaLagMonitor, lagOf, type KafkaLagMonitorOptions } from './consumer-lag.monitor';
