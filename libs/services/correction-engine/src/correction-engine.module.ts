import { Module } from '@nestjs/common';
import { CorrectionHandler } from './correction.handler';

@Module({ controllers: [CorrectionHandler] })
export class CorrectionEngineModule {}
