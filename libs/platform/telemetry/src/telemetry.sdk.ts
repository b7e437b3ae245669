/**
 * Starts OpenTelemetry for a Wayfinder process (STYLE "Services": telemetry first, before Nest loads).
 * Resource: service name (OTEL_SERVICE_NAME wins), version and instance id, plus whatever
 * OTEL_RESOURCE_ATTRIBUTES adds. Export over OTLP/HTTP configured by the standard OTEL_* variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT, ..._TRACES_ENDPOINT, ..._METRICS_ENDPOINT, headers, timeouts,
 * OTEL_METRIC_EXPORT_INTERVAL, OTEL_TRACES_SAMPLER). With no endpoint, no metrics file and nothing
 * supplied by the caller, nothing is started at all: no exporter retries against a collector that does
 * not exist, and the API stays the no-op it is by default. OTEL_SDK_DISABLED=true turns it off too.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { FanOutMetricExporter, JsonFileMetricExporter } from './metrics-file.exporter';

/** `service.instance.id` is still incubating in the semantic conventions; its name is stable. */
export const ATTR_SERVICE_INSTANCE_ID = 'service.instance.id';

export interface TelemetryOptions {
  /** e.g. `wayfinder-detector-worker`; OTEL_SERVICE_NAME overrides it. */
  readonly serviceName: string;
  readonly serviceVersion?: string;
  /** Default: `<host>:<pid>:<random>`, unique per process. */
  readonly instanceId?: string;
  /** Write the metrics of the run as JSON to this file (headless runs: `wayfinder demo --metrics-file`). */
  readonly metricsFile?: string;
  /**
   * Environment the OTEL_* variables are read from to decide what to start (default process.env); the
   * OTLP exporters themselves read their endpoint, headers and timeouts from process.env, as usual.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Extra span processors (tests: a SimpleSpanProcessor over an InMemorySpanExporter). */
  readonly spanProcessors?: readonly SpanProcessor[];
  /** Extra metric exporters fed by the same periodic reader (tests: an InMemoryMetricExporter). */
  readonly metricExporters?: readonly PushMetricExporter[];
}

export interface Telemetry {
  /** False when nothing was started (no endpoint, no file, nothing supplied, or OTEL_SDK_DISABLED). */
  readonly enabled: boolean;
  /** What is exported, for the startup log line: e.g. ['otlp-traces', 'otlp-metrics', 'file:m.json']. */
  readonly exports: readonly string[];
  /** Exports every pending span and the current metrics now. */
  flush(): Promise<void>;
  /** Flushes and stops the SDK (the last metrics export writes the metrics file). Idempotent. */
  shutdown(): Promise<void>;
}

const DISABLED: Telemetry = { enabled: false, exports: [], flush: async () => undefined, shutdown: async () => undefined };

/** What would be exported, decided from the options and the OTEL_* variables alone (no side effect). */
export function telemetryPlan(options: Pick<TelemetryOptions, 'env' | 'metricsFile'>): { disabled: boolean; otlpTraces: boolean; otlpMetrics: boolean; metricsFile?: string } {
  const env = options.env ?? process.env;
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const disabled = (env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true';
  const none = (name: string) => (env[name] ?? '').split(',').map((v) => v.trim()).includes('none');
  return {
    disabled,
    otlpTraces: !disabled && !none('OTEL_TRACES_EXPORTER') && (set('OTEL_EXPORTER_OTLP_ENDPOINT') || set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')),
    otlpMetrics: !disabled && !none('OTEL_METRICS_EXPORTER') && (set('OTEL_EXPORTER_OTLP_ENDPOINT') || set('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT')),
    ...(options.metricsFile && !disabled ? { metricsFile: options.metricsFile } : {}),
  };
}

export function startTelemetry(options: TelemetryOptions): Telemetry {
  const env = options.env ?? process.env;
  const plan = telemetryPlan(options);
  if (plan.disabled) return DISABLED;
  const { otlpTraces, otlpMetrics } = plan;
  const exports: string[] = [];

  const spanProcessors: SpanProcessor[] = [...(options.spanProcessors ?? [])];
  if (otlpTraces) {
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
    exports.push('otlp-traces');
  }
  const metricExporters: PushMetricExporter[] = [...(options.metricExporters ?? [])];
  if (otlpMetrics) {
    metricExporters.push(new OTLPMetricExporter());
    exports.push('otlp-metrics');
  }
  if (options.metricsFile) {
    metricExporters.push(new JsonFileMetricExporter(options.metricsFile));
    exports.push(`file:${options.metricsFile}`);
  }
  if (spanProcessors.length === 0 && metricExporters.length === 0) return DISABLED;

  const reader =
    metricExporters.length > 0
      ? new PeriodicExportingMetricReader({
          exporter: metricExporters.length === 1 ? metricExporters[0] : new FanOutMetricExporter(metricExporters),
          ...metricExportTimes(env),
        })
      : undefined;
  const sdk = new NodeSDK({
    serviceName: nonEmpty(env['OTEL_SERVICE_NAME']) ?? options.serviceName,
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
      [ATTR_SERVICE_INSTANCE_ID]: options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    }),
    // No auto-instrumentation: Kafka hops are traced by TracedBus, which also owns the propagation format.
    instrumentations: [],
    textMapPropagator: new W3CTraceContextPropagator(),
    // Logs stay on stdout/stderr; without this the SDK would start an OTLP log exporter by default.
    logRecordProcessors: [],
    spanProcessors,
    ...(reader ? { metricReader: reader } : {}),
  });
  sdk.start();

  let stopped: Promise<void> | undefined;
  return {
    enabled: true,
    exports,
    async flush() {
      await Promise.all([reader?.forceFlush(), ...spanProcessors.map((p) => p.forceFlush())]);
    },
    shutdown() {
      stopped ??= sdk.shutdown();
      return stopped;
    },
  };
}

function positiveInt(value: string | undefined): number | undefined {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * OTEL_METRIC_EXPORT_INTERVAL and _TIMEOUT (defaults 60 s and 30 s). The reader refuses a timeout longer
 * than the interval, so a short interval alone (e.g. 5 s for a demo) caps the default timeout at it
 * rather than stopping the process at boot.
 */
export function metricExportTimes(env: Readonly<Record<string, string | undefined>>): { exportIntervalMillis: number; exportTimeoutMillis: number } {
  const exportIntervalMillis = positiveInt(env['OTEL_METRIC_EXPORT_INTERVAL']) ?? 60_000;
  const timeout = positiveInt(env['OTEL_METRIC_EXPORT_TIMEOUT']);
  return { exportIntervalMillis, exportTimeoutMillis: Math.min(timeout ?? 30_000, exportIntervalMillis) };
}
