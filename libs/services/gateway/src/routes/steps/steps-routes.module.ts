/** Route family `POST /v1/steps`. */
import { Module } from '@nestjs/common';
import { StepsController } from './steps.controller';

@Module({ controllers: [StepsController] })
export class StepsRoutesModule {}
