/**
 * history-recorder (DESIGN §13): fills the history store from the navigation topics, in a consumer group
 * of its own. Each batch is written before the bus commits its offsets, and every record is idempotent
 * by id, so a restart or a redelivered batch loses nothing and doubles nothing.
 */
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { Correction, Deviation, Escalation, LocalizedStep } from '@wayfinder/contracts';
import { BatchEventPattern } from '@wayfinder/bus';
import { correctionRecordOf, deviationRecordOf, escalationRecordOf, stepSummaryOf, type HistoryStore } from '@wayfinder/history';
import { HISTORY_STORE } from './tokens';

@Controller()
export class HistoryRecorderHandler {
  constructor(@Inject(HISTORY_STORE) private readonly store: HistoryStore) {}

  @BatchEventPattern('wayfinder.localized.v1')
  async onLocalized(@Payload() batch: LocalizedStep[]): Promise<void> {
    await this.store.append(batch.map(stepSummaryOf));
  }

  @BatchEventPattern('wayfinder.deviations.v1')
  async onDeviations(@Payload() batch: Deviation[]): Promise<void> {
    await this.store.append(batch.map(deviationRecordOf));
  }

  @BatchEventPattern('wayfinder.corrections.v1')
  async onCorrections(@Payload() batch: Correction[]): Promise<void> {
    await this.store.append(batch.map((c) => correctionRecordOf(c)));
  }

  @BatchEventPattern('wayfinder.would-send.v1')
  async onWouldSend(@Payload() batch: Correction[]): Promise<void> {
    await this.store.append(batch.map((c) => correctionRecordOf(c, 'would-send')));
  }

  @BatchEventPattern('wayfinder.escalations.v1')
  async onEscalations(@Payload() batch: Escalation[]): Promise<void> {
    await this.store.append(batch.map(escalationRecordOf));
  }
}
