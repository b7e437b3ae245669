/**
 * The collector configuration cannot run here (no collector binary), so its structure is checked: OTLP
 * in on both protocols, metrics out through the prometheus exporter with the suffix naming the alert
 * rules assume, a traces pipeline, every pipeline component defined, and Prometheus scraping the port
 * the exporter listens on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const collector = parse(readFileSync(join(__dirname, 'collector.yaml'), 'utf8'));
const prometheus = parse(readFileSync(join(__dirname, '..', 'prometheus', 'prometheus.yml'), 'utf8'));

describe('OpenTelemetry collector config', () => {
  it('receives OTLP over gRPC and HTTP on the standard ports', () => {
    expect(collector.receivers.otlp.protocols.grpc.endpoint).toMatch(/:4317$/);
    expect(collector.receivers.otlp.protocols.http.endpoint).toMatch(/:4318$/);
  });

  it('exports metrics to Prometheus with the naming metric-names.ts reproduces', () => {
    expect(collector.service.pipelines.metrics).toMatchObject({ receivers: ['otlp'], exporters: ['prometheus'] });
    expect(collector.exporters.prometheus.add_metric_suffixes).toBe(true);
    expect(collector.exporters.prometheus.namespace ?? '').toBe('');
    expect(collector.exporters.prometheus.resource_to_telemetry_conversion.enabled).toBe(false);
  });

  it('has a traces pipeline and defines every component its pipelines use', () => {
    expect(collector.service.pipelines.traces.receivers).toEqual(['otlp']);
    for (const pipeline of Object.values(collector.service.pipelines) as Array<Record<string, string[]>>) {
      for (const name of pipeline['receivers']) expect(collector.receivers).toHaveProperty([name]);
      for (const name of pipeline['processors'] ?? []) expect(collector.processors).toHaveProperty([name]);
      for (const name of pipeline['exporters']) expect(collector.exporters).toHaveProperty([name]);
    }
  });

  it('is scraped by Prometheus on the exporter port', () => {
    const port = collector.exporters.prometheus.endpoint.split(':').pop();
    const targets = prometheus.scrape_configs.flatMap((c: { static_configs: Array<{ targets: string[] }> }) => c.static_configs.flatMap((s) => s.targets));
    expect(targets).toContain(`otel-collector:${port}`);
    expect(prometheus.rule_files).toContain('/etc/prometheus/alerts.yml');
  });
});
