/**
 * Starting telemetry: nothing starts without an endpoint, a file or a caller's exporter; the OTEL_*
 * variables choose OTLP; and a headless run writes its metrics as JSON (name, type, unit, data points
 * with attributes and values) with the resource naming the service, its version and instance.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metrics } from '@opentelemetry/api';
import type { StepEvent } from '@wayfinder/contracts';
import type { MetricsFileJson } from './metrics-file.exporter';
import { navigationMetrics } from './navigation.metrics';
import { startTelemetry, telemetryPlan } from './telemetry.sdk';

const step: StepEvent = {
  schema: 'wayfinder.step.v1', eventId: 'e1', tenantId: 'acme', ts: '2026-01-01T00:00:00.000Z', agentId: 'a1', taskId: 't1', seq: 1,
  kind: 'action', action: { tool: 'search_web', args: {} },
};

describe('startTelemetry', () => {
  it('starts nothing when no endpoint, file or exporter is configured', async () => {
    const telemetry = startTelemetry({ serviceName: 'wayfinder-test', env: {} });
    expect(telemetry).toMatchObject({ enabled: false, exports: [] });
    // The global API is still the no-op: nothing was registered.
    expect(metrics.getMeterProvider().constructor.name).toBe('NoopMeterProvider');
    await telemetry.shutdown();
  });

  it('is off when OTEL_SDK_DISABLED is true, even with a file', () => {
    expect(startTelemetry({ serviceName: 'x', env: { OTEL_SDK_DISABLED: 'true' }, metricsFile: '/tmp/never.json' }).enabled).toBe(false);
  });

  it('chooses OTLP per signal from the standard variables', () => {
    expect(telemetryPlan({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' } })).toMatchObject({ otlpTraces: true, otlpMetrics: true });
    expect(telemetryPlan({ env: { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://c:4318/v1/metrics' } })).toMatchObject({ otlpTraces: false, otlpMetrics: true });
    expect(telemetryPlan({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' } })).toMatchObject({ otlpTraces: false, otlpMetrics: true });
    expect(telemetryPlan({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' } })).toMatchObject({ otlpTraces: false, otlpMetrics: false });
  });

  it('writes the metrics of a headless run to the metrics file on shutdown', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wayfinder-metrics-')), 'm.json');
    const telemetry = startTelemetry({ serviceName: 'wayfinder-demo', serviceVersion: '0.1.0', instanceId: 'demo-1', env: {}, metricsFile: file });
    expect(telemetry).toMatchObject({ enabled: true, exports: [`file:${file}`] });
    const navigation = navigationMetrics();
    navigation.stepsProcessed([step, step], 'state-localizer');
    navigation.selfHeal('acme', 3, 1);
    await telemetry.shutdown();

    const written = JSON.parse(readFileSync(file, 'utf8')) as MetricsFileJson;
    expect(written.resource).toMatchObject({ 'service.name': 'wayfinder-demo', 'service.version': '0.1.0', 'service.instance.id': 'demo-1' });
    const byName = new Map(written.metrics.map((m) => [m.name, m]));
    expect(byName.get('wayfinder.steps.processed')).toMatchObject({
      type: 'counter', unit: '{step}',
      points: [{ attributes: { tenant: 'acme', service: 'state-localizer', kind: 'action' }, value: 2 }],
    });
    expect(byName.get('wayfinder.self_heal.rate')).toMatchObject({ type: 'gauge', unit: '1', points: [{ attributes: { tenant: 'acme' }, value: 0.75 }] });
    expect(byName.get('wayfinder.self_heal.failures')?.points[0].value).toBe(1);
  });
});
