/**
 * A tiny Nest microservice for the BusTransport tests: one @EventPattern handler of step events (which
 * fails once on seq 3, to exercise retries) and one of their DLQ. The same app runs on either adapter.
 */
import 'reflect-metadata';
import { Controller, Inject, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload, type MicroserviceOptions } from '@nestjs/microservices';
import { DLQ_HEADERS, type StepEvent } from '@wayfinder/contracts';
import type { Bus } from '../../bus';
import { BusContext } from '../bus.context';
import { BusTransport } from '../bus.transport';

export interface StepsAppRecord {
  steps: Array<{ seq: number; key: string | null; topic: string }>;
  dead: Array<{ bytes: string; error: string }>;
  /** Failures still to throw on seq 3; ends at -1 when exactly one retry of seq 3 happened. */
  failuresLeft: number;
}

const RECORD = Symbol('steps-app-record');

@Controller()
class StepsController {
  constructor(@Inject(RECORD) private readonly record: StepsAppRecord) {}

  @EventPattern('wayfinder.steps.v1')
  async onStep(@Payload() step: StepEvent, @Ctx() ctx: BusContext): Promise<void> {
    if (step.seq === 3 && this.record.failuresLeft-- > 0) throw new Error('flaky store');
    this.record.steps.push({ seq: step.seq, key: ctx.getKey(), topic: ctx.getTopic() });
  }

  @EventPattern('wayfinder.steps.v1.dlq')
  onDead(@Payload() bytes: Buffer, @Ctx() ctx: BusContext): void {
    this.record.dead.push({ bytes: bytes.toString('utf8'), error: ctx.getHeaders()[DLQ_HEADERS.error] });
  }
}

export async function startStepsApp(bus: Bus, groupId: string): Promise<{ app: INestMicroservice; record: StepsAppRecord }> {
  const record: StepsAppRecord = { steps: [], dead: [], failuresLeft: 1 };
  @Module({ controllers: [StepsController], providers: [{ provide: RECORD, useValue: record }] })
  class StepsAppModule {}
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(StepsAppModule, {
    strategy: new BusTransport(bus, { groupId }),
    logger: false,
  });
  await app.listen();
  return { app, record };
}
