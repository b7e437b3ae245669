/**
 * The state localizer reads time through the CLOCK token (WayfinderCoreModule): a step with no map is
 * held until the manual clock passes the hold timeout, then localized as unknown — no waiting in the test.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InProcessBus } from '@wayfinder/bus';
import { ManualClock } from '@wayfinder/clock';
import type { LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { InMemoryMapStore, PolicyBook, WayfinderCoreModule } from '@wayfinder/service-core';
import { LOCALIZER_HOLD, StepHandler } from './step.handler';

const step: StepEvent = {
  schema: 'wayfinder.step.v1', eventId: 'e1', tenantId: 'acme', agentId: 'a1', taskId: 'no-map-yet', runId: 'r', seq: 0,
  ts: '2026-01-01T00:00:00.000Z', kind: 'compaction', compaction: { reason: 'x' },
};

/** The state localizer on a manual clock, with what it publishes on the localized topic. */
async function localizerOnManualClock() {
  const clock = new ManualClock(1_000_000);
  const bus = new InProcessBus();
  const published: LocalizedStep[] = [];
  bus.publish = (async (topic: string, payloads: readonly unknown[]) => {
    if (topic === 'wayfinder.localized.v1') published.push(...(payloads as LocalizedStep[]));
  }) as typeof bus.publish;

  @Module({
    imports: [WayfinderCoreModule.forRoot({ bus, mapStore: new InMemoryMapStore(), policyBook: new PolicyBook(), embedder: new HashingEmbedder(), clock })],
    controllers: [StepHandler],
  })
  class AppModule {}

  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  return { handler: app.get(StepHandler), clock, published, close: () => app.close() };
}

it('holds a mapless step until the injected clock passes the hold timeout', async () => {
  const { handler, clock, published, close } = await localizerOnManualClock();
  try {
    await handler.onSteps([step]);
    expect(published).toEqual([]);
    clock.advance(LOCALIZER_HOLD.timeoutMs - 1);
    await handler.sweep();
    expect(published).toEqual([]);
    clock.advance(1);
    await handler.sweep();
    expect(published.map((l) => [l.step.eventId, l.position.method])).toEqual([['e1', 'unknown']]);
  } finally {
    await close();
  }
});

it("two tenants' held steps with the same eventId are both localized after the hold (one is not taken for a redelivery of the other)", async () => {
  const { handler, clock, published, close } = await localizerOnManualClock();
  try {
    const other: StepEvent = { ...step, tenantId: 'globex' };
    await handler.onSteps([step, other, step]);
    clock.advance(LOCALIZER_HOLD.timeoutMs);
    await handler.sweep();
    expect(published.map((l) => `${l.step.tenantId}/${l.step.eventId}`).sort()).toEqual(['acme/e1', 'globex/e1']);
  } finally {
    await close();
  }
});
