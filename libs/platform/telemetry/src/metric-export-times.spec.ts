// A short OTEL_METRIC_EXPORT_INTERVAL on its own must not stop a service at boot (the reader refuses a
// timeout longer than the interval, and the default timeout is 30 s).
import { metricExportTimes, startTelemetry } from './telemetry.sdk';

describe('metric export interval and timeout', () => {
  it('uses the OpenTelemetry defaults, and caps the timeout at a shorter interval', () => {
    expect(metricExportTimes({})).toEqual({ exportIntervalMillis: 60_000, exportTimeoutMillis: 30_000 });
    expect(metricExportTimes({ OTEL_METRIC_EXPORT_INTERVAL: '5000' })).toEqual({ exportIntervalMillis: 5_000, exportTimeoutMillis: 5_000 });
    expect(metricExportTimes({ OTEL_METRIC_EXPORT_INTERVAL: '20000', OTEL_METRIC_EXPORT_TIMEOUT: '3000' })).toEqual({ exportIntervalMillis: 20_000, exportTimeoutMillis: 3_000 });
    expect(metricExportTimes({ OTEL_METRIC_EXPORT_INTERVAL: 'soon' })).toEqual({ exportIntervalMillis: 60_000, exportTimeoutMillis: 30_000 });
  });

  it('starts the SDK with a 5 s interval and no timeout given', async () => {
    const telemetry = startTelemetry({ serviceName: 'wayfinder-test', env: { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://127.0.0.1:9/v1/metrics', OTEL_METRIC_EXPORT_INTERVAL: '5000', OTEL_TRACES_EXPORTER: 'none' } });
    expect(telemetry.enabled).toBe(true);
    await telemetry.shutdown();
  });
});
