/**
 * The steps topic refuses a publish once: the batch of raw spans is retried by the bus, its spans are
 * duplicates by then, and the released steps still go out — once each — from the outbox.
 */
import type { PayloadOf, StepEvent, TopicName } from '@wayfinder/contracts';
import { InProcessBus, type PublishOptions } from '@wayfinder/bus';
import { otlpJsonBatches, recordAgentRun } from '@wayfinder/otlp/testing';
import { until } from '@wayfinder/testing';
import { OtlpExportHandler } from './otlp-export.handler';
import { startOtlpNormalizer } from './otlp-normalizer.service';

class FlakyBus extends InProcessBus {
  failures = 1;
  override async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options?: PublishOptions): Promise<void> {
    if (topic === 'wayfinder.steps.v1' && this.failures > 0) {
      this.failures--;
      throw new Error('steps topic unavailable');
    }
    return super.publish(topic, payloads, options);
  }
}

describe('a steps publish that fails once', () => {
  it('publishes every released step once when the bus retries', async () => {
    const bus = new FlakyBus({ retry: { initialBackoffMs: 10 } });
    const steps: StepEvent[] = [];
    bus.subscribe('wayfinder.steps.v1', async (batch) => void steps.push(...batch.map((d) => d.payload)), { groupId: 'test-steps' });
    // rootGraceMs 0: the root span's arrival releases the trace in the same batch, so the failing publish is the handler's.
    const service = startOtlpNormalizer({ bus, groupId: 'otlp', tickMs: 0, normalizer: { rootGraceMs: 0 } });
    await bus.start();
    try {
      const [json] = otlpJsonBatches(await recordAgentRun({ agentName: 'flaky', calls: [{ tool: 'a', args: { n: 1 }, result: 'x' }, { tool: 'b', args: { n: 2 }, result: 'y' }] }));
      expect((await new OtlpExportHandler(bus).handleOtlpExport(Buffer.from(json), 'application/json', undefined, 't')).status).toBe(200);
      await until(() => steps.length >= 4);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(bus.failures).toBe(0);
      expect(steps.map((s) => `${s.kind}:${s.seq}`)).toEqual(['action:0', 'observation:1', 'action:2', 'observation:3']);
      expect(service.normalizer.stats.duplicates).toBeGreaterThan(0);
    } finally {
      await service.stop();
      await bus.stop();
    }
  });
});
