/**
 * Fills the correction log from the corrections topic, in the gateway's own consumer group: every
 * correction lands in its agent's log once (redeliveries are no-ops), then waiting clients are woken.
 * A log write that fails fails the batch, which is retried: nothing is committed that was not kept.
 */
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { Correction } from '@wayfinder/contracts';
import { BatchEventPattern } from '@wayfinder/bus';
import type { CorrectionLog } from '@wayfinder/tenancy';
import { CORRECTION_LOG } from '../../tokens';
import { CorrectionWaiter } from './correction-waiter';

@Controller()
export class CorrectionsFeedHandler {
  constructor(
    @Inject(CORRECTION_LOG) private readonly log: CorrectionLog,
    private readonly waiter: CorrectionWaiter,
  ) {}

  @BatchEventPattern('wayfinder.corrections.v1')
  async onCorrections(@Payload() batch: Correction[]): Promise<void> {
    await this.log.append(batch);
    this.waiter.notify(batch);
  }
}
