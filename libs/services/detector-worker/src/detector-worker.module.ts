import { Module } from '@nestjs/common';
import { DelegationsHandler } from '@wayfinder/service-core';
import { LocalizedHandler } from './localized.handler';

@Module({ controllers: [LocalizedHandler, DelegationsHandler] })
export class DetectorWorkerModule {}
