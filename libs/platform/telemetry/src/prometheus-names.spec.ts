/**
 * The Prometheus names our metrics get through the collector's prometheus exporter (suffixes on):
 * checked on the translator's documented examples and on the names the alert rules rely on.
 */
import { METRICS, prometheusName, prometheusSeriesNames } from './metric-names';

describe('prometheusName', () => {
  it.each([
    [{ name: 'http.server.request.duration', kind: 'histogram', unit: 's' }, 'http_server_request_duration_seconds'],
    [{ name: 'wayfinder.steps.processed', kind: 'counter', unit: '{step}' }, 'wayfinder_steps_processed_total'],
    [{ name: 'wayfinder.self_heal.rate', kind: 'gauge', unit: '1' }, 'wayfinder_self_heal_rate_ratio'],
    [{ name: 'process.cpu.time', kind: 'counter', unit: 's' }, 'process_cpu_time_seconds_total'],
    [{ name: 'queue.size', kind: 'gauge', unit: 'By' }, 'queue_size_bytes'],
    [{ name: 'request.latency.seconds', kind: 'histogram', unit: 's' }, 'request_latency_seconds'],
    [{ name: 'requests.total', kind: 'counter', unit: '1' }, 'requests_total'],
    [{ name: 'throughput', kind: 'gauge', unit: 'By/s' }, 'throughput_bytes_per_seconds'],
  ] as const)('%o → %s', (spec, expected) => {
    expect(prometheusName(spec)).toBe(expected);
  });

  it('gives the names the alert rules and dashboard use', () => {
    expect(prometheusSeriesNames()).toEqual(
      expect.arrayContaining([
        'wayfinder_deviations_total',
        'wayfinder_corrections_total',
        'wayfinder_self_heal_successes_total',
        'wayfinder_self_heal_failures_total',
        'wayfinder_escalations_total',
        'wayfinder_consumer_lag',
        'wayfinder_dlq_messages_total',
        'wayfinder_step_to_correction_latency_seconds_bucket',
        'wayfinder_stagnation_duration_seconds_count',
      ]),
    );
  });

  it('keeps every name unique and under the wayfinder namespace', () => {
    const names = Object.values(METRICS).map((m) => prometheusName(m));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^wayfinder_[a-z0-9_]+$/);
  });
});
