/** Route family `POST /v1/traces` (OTLP/HTTP trace export, DESIGN §12). */
import { Module } from '@nestjs/common';
import { TracesController } from './traces.controller';

@Module({ controllers: [TracesController] })
export class TracesRoutesModule {}
