import { Module } from '@nestjs/common';
import { StepHandler } from './step.handler';

@Module({ controllers: [StepHandler] })
export class StateLocalizerModule {}
