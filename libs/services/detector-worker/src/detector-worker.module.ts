import { Module } from '@nestjs/common';
import { LocalizedHandler } from './localized.handler';

@Module({ controllers: [LocalizedHandler] })
export class DetectorWorkerModule {}
