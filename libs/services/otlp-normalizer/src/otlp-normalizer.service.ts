/**
 * The otlp-normalizer service (DESIGN §12): consumes raw OTLP spans from `wayfinder.otlp.v1` (keyed
 * `tenantId:traceId`, so a trace's batches reach one instance, in order), runs the mapping and the
 * per-trace normalizer of @wayfinder/ingest, and publishes the released steps on `wayfinder.steps.v1`.
 * A message whose request cannot be read, or with spans that are malformed, goes to the DLQ with the
 * reason (its good spans are still ingested; replaying it is safe, re-sent spans are duplicates).
 * A timer releases traces that went idle or whose root span ended; `stop()` flushes every open trace.
 *
 * The buffer is in memory: a crash loses the spans of traces not yet released (at most the watermark
 * delay, or until a trace's flush), since their offsets were committed when they were buffered.
 */
import { Logger } from '@nestjs/common';
import { systemClock } from '@wayfinder/clock';
import type { OtlpTraceBatch, StepEvent } from '@wayfinder/contracts';
import type { Bus, Delivered } from '@wayfinder/bus';
import { OtlpNormalizer, readTraceRequest, type Clock, type NormalizerOptions } from '@wayfinder/ingest';
import { deadLetter } from '@wayfinder/service-core';
import { rejectionMessage } from './otlp-export.handler';

export interface OtlpNormalizerServiceOptions {
  bus: Bus;
  /** Consumer group, `<groupPrefix>.otlp-normalizer` in the runtime. */
  groupId: string;
  clock?: Clock;
  normalizer?: Partial<NormalizerOptions>;
  /** How often idle traces and ended roots are flushed (ms, default 500; 0: only by `tick()`). */
  tickMs?: number;
}

export interface RunningOtlpNormalizer {
  readonly normalizer: OtlpNormalizer;
  /** Flushes what is due now and publishes it. */
  tick(): Promise<void>;
  /** Stops the timer, flushes every open trace and publishes its steps. */
  stop(): Promise<void>;
}

/** Subscribes on the bus (call before `bus.start()`, or on a started bus for a new group). */
export function startOtlpNormalizer(options: OtlpNormalizerServiceOptions): RunningOtlpNormalizer {
  const logger = new Logger('otlp-normalizer');
  const { bus } = options;
  const normalizer = new OtlpNormalizer(options.clock ?? systemClock, options.normalizer);
  // Released steps wait in an outbox until the bus took them: a failed publish fails the batch (the bus
  // retries it; its spans are then duplicates) and the steps go out with the next attempt, in order.
  const outbox: StepEvent[] = [];
  let draining: Promise<void> | undefined;
  const drain = async (): Promise<void> => {
    while (draining) await draining.catch(() => undefined);
    if (outbox.length === 0) return;
    const chunk = outbox.slice();
    draining = bus.publish('wayfinder.steps.v1', chunk).then(() => void outbox.splice(0, chunk.length));
    try {
      await draining;
    } finally {
      draining = undefined;
    }
  };
  const publish = (steps: StepEvent[]): Promise<void> => {
    outbox.push(...steps);
    return drain();
  };

  bus.subscribe(
    'wayfinder.otlp.v1',
    async (batch: Delivered<OtlpTraceBatch>[]) => {
      const steps: StepEvent[] = [];
      for (const delivered of batch) {
        const message = delivered.payload;
        const read = readTraceRequest(message.request);
        if (!read.ok) {
          await deadLetter(bus, delivered, `request: ${read.field ? `${read.field}: ` : ''}${read.error}`);
          continue;
        }
        const foreign = read.spans.filter((s) => s.traceId !== message.traceId);
        const spans = foreign.length > 0 ? read.spans.filter((s) => s.traceId === message.traceId) : read.spans;
        steps.push(...normalizer.ingest(message.tenantId, spans));
        if (read.rejected.length > 0 || foreign.length > 0) {
          const reason = [read.rejected.length > 0 ? rejectionMessage(read.rejected) : '', foreign.length > 0 ? `${foreign.length} span(s) of another trace than ${message.traceId}` : ''].filter(Boolean).join('; ');
          logger.warn(`tenant ${message.tenantId} trace ${message.traceId}: ${reason}`);
          await deadLetter(bus, delivered, reason);
        }
      }
      await publish(steps);
    },
    { groupId: options.groupId },
  );

  const tick = () => publish(normalizer.tick());
  const tickMs = options.tickMs ?? 500;
  const timer = tickMs > 0 ? setInterval(() => void tick().catch((error) => logger.error(`publishing flushed steps failed: ${(error as Error).message}`)), tickMs) : undefined;
  timer?.unref();

  return {
    normalizer,
    tick,
    async stop() {
      if (timer) clearInterval(timer);
      await publish(normalizer.flushAll());
    },
  };
}
