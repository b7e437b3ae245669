/** The operations stream services as Nest modules, for `startServices`: the history recorder and the escalation notifier. */
import { Module } from '@nestjs/common';
import { EscalationNotifierHandler } from './escalation-notifier.handler';
import { HistoryRecorderHandler } from './history-recorder.handler';

@Module({ controllers: [HistoryRecorderHandler] })
export class HistoryRecorderModule {}

@Module({ controllers: [EscalationNotifierHandler] })
export class EscalationNotifierModule {}
