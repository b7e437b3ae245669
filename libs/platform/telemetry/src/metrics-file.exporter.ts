/**
 * Headless metrics (`wayfinder demo --metrics-file m.json`): the metrics of the run as plain JSON —
 * every metric's name, type, unit and data points with their attributes and values — rewritten at each
 * export (atomically, through a temporary file and a rename) so the file always holds the latest
 * cumulative state and the final one after shutdown. Also the fan-out that lets one periodic reader feed
 * this file and OTLP at once (the Node SDK takes a single metric reader).
 */
import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import {
  AggregationTemporality,
  DataPointType,
  type InstrumentType,
  type MetricData,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface MetricPointJson {
  readonly attributes: Record<string, unknown>;
  /** A number for sums and gauges; the distribution for histograms. */
  readonly value: number | { count: number; sum: number | null; min: number | null; max: number | null; boundaries: number[]; counts: number[] };
  readonly startTime: string;
  readonly endTime: string;
}

export interface MetricJson {
  readonly name: string;
  readonly type: 'counter' | 'up_down_counter' | 'gauge' | 'histogram' | 'exponential_histogram';
  readonly unit: string;
  readonly description: string;
  readonly scope: string;
  readonly points: MetricPointJson[];
}

export interface MetricsFileJson {
  readonly resource: Record<string, unknown>;
  readonly exportedAt: string;
  readonly metrics: MetricJson[];
}

export function metricsToJson(resourceMetrics: ResourceMetrics, exportedAt = new Date()): MetricsFileJson {
  const metrics: MetricJson[] = [];
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) metrics.push(metricToJson(metric, scope.scope.name));
  }
  metrics.sort((a, b) => a.name.localeCompare(b.name));
  return { resource: { ...resourceMetrics.resource.attributes }, exportedAt: exportedAt.toISOString(), metrics };
}

function metricToJson(metric: MetricData, scope: string): MetricJson {
  const base = { name: metric.descriptor.name, unit: metric.descriptor.unit, description: metric.descriptor.description, scope };
  const time = (point: { startTime: [number, number]; endTime: [number, number] }) => ({
    startTime: new Date(hrTimeToMilliseconds(point.startTime)).toISOString(),
    endTime: new Date(hrTimeToMilliseconds(point.endTime)).toISOString(),
  });
  switch (metric.dataPointType) {
    case DataPointType.SUM:
      return {
        ...base,
        type: metric.isMonotonic ? 'counter' : 'up_down_counter',
        points: metric.dataPoints.map((p) => ({ attributes: { ...p.attributes }, value: p.value, ...time(p) })),
      };
    case DataPointType.GAUGE:
      return { ...base, type: 'gauge', points: metric.dataPoints.map((p) => ({ attributes: { ...p.attributes }, value: p.value, ...time(p) })) };
    case DataPointType.HISTOGRAM:
      return {
        ...base,
        type: 'histogram',
        points: metric.dataPoints.map((p) => ({
          attributes: { ...p.attributes },
          value: {
            count: p.value.count,
            sum: p.value.sum ?? null,
            min: p.value.min ?? null,
            max: p.value.max ?? null,
            boundaries: [...p.value.buckets.boundaries],
            counts: [...p.value.buckets.counts],
          },
          ...time(p),
        })),
      };
    default:
      return {
        ...base,
        type: 'exponential_histogram',
        points: metric.dataPoints.map((p) => ({
          attributes: { ...p.attributes },
          value: { count: p.value.count, sum: p.value.sum ?? null, min: p.value.min ?? null, max: p.value.max ?? null, boundaries: [], counts: [] },
          ...time(p),
        })),
      };
  }
}

/** Writes the latest cumulative metrics to one JSON file at each export. */
export class JsonFileMetricExporter implements PushMetricExporter {
  constructor(private readonly path: string) {}

  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const tmp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(metricsToJson(metrics), null, 2)}\n`);
      renameSync(tmp, this.path);
      resultCallback({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      resultCallback({ code: ExportResultCode.FAILED, error: error as Error });
    }
  }

  selectAggregationTemporality(_instrumentType: InstrumentType): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve(); // every export is written synchronously
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One reader, several exporters; every exporter sees cumulative data. Fails if any exporter failed. */
export class FanOutMetricExporter implements PushMetricExporter {
  constructor(private readonly exporters: readonly PushMetricExporter[]) {}

  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    let pending = this.exporters.length;
    let failure: ExportResult | undefined;
    if (pending === 0) return resultCallback({ code: ExportResultCode.SUCCESS });
    for (const exporter of this.exporters) {
      exporter.export(metrics, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) failure ??= result;
        if (--pending === 0) resultCallback(failure ?? { code: ExportResultCode.SUCCESS });
      });
    }
  }

  selectAggregationTemporality(_instrumentType: InstrumentType): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.exporters.map((e) => e.forceFlush()));
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.exporters.map((e) => e.shutdown()));
  }
}
