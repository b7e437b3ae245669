/** Route family `/v1/agents/:agentId/…` (corrections, ack, resume) and the feed that fills the log. */
import { Module } from '@nestjs/common';
import { CorrectionWaiter } from './correction-waiter';
import { CorrectionsController } from './corrections.controller';
import { CorrectionsFeedHandler } from './corrections-feed.handler';

@Module({ controllers: [CorrectionsController, CorrectionsFeedHandler], providers: [CorrectionWaiter] })
export class CorrectionsRoutesModule {}
