import { Module } from '@nestjs/common';
import { DelegationsHandler } from './delegations.handler';
import { LocalizedHandler } from './localized.handler';

@Module({ controllers: [LocalizedHandler, DelegationsHandler] })
export class DetectorWorkerModule {}
