/**
 * A batch handler and a per-message handler on the same topic in one Nest app: each is called once per
 * delivery unit with what it expects (Nest's own handler chaining would hand both the same argument).
 */
import 'reflect-metadata';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import type { StepEvent } from '@wayfinder/contracts';
import { InProcessBus } from '../in-process.bus';
import { BatchEventPattern, BusTransport } from './bus.transport';

const seen = { batches: [] as number[][], messages: [] as number[] };

@Controller()
class BatchReader {
  @BatchEventPattern('wayfinder.steps.v1')
  onBatch(@Payload() steps: StepEvent[]): void {
    seen.batches.push(steps.map((s) => s.seq));
  }
}

@Controller()
class MessageReader {
  @EventPattern('wayfinder.steps.v1')
  onStep(@Payload() step: StepEvent): void {
    seen.messages.push(step.seq);
  }
}

@Module({ controllers: [BatchReader, MessageReader] })
class AppModule {}

function step(seq: number): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 't', agentId: 'a', taskId: 'x', seq, ts: '2026-01-01T00:00:00.000Z', kind: 'compaction', compaction: { reason: 'r' } };
}

describe('BusTransport with batch and per-message handlers', () => {
  let app: INestMicroservice;
  const bus = new InProcessBus();

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(AppModule, { strategy: new BusTransport(bus, { groupId: 'g' }), logger: false });
    await app.listen();
  });
  afterAll(() => app.close());

  it('gives the batch handler arrays and the message handler single payloads, each message once', async () => {
    await bus.publish('wayfinder.steps.v1', [0, 1, 2, 3, 4].map(step));
    const started = Date.now();
    while (seen.messages.length < 5 && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 10));
    expect(seen.messages).toEqual([0, 1, 2, 3, 4]);
    expect(seen.batches.flat()).toEqual([0, 1, 2, 3, 4]);
    for (const batch of seen.batches) expect(Array.isArray(batch)).toBe(true);
  });
});
