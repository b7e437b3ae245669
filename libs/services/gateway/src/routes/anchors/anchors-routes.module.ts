/** Route family `POST /v1/agents/:agentId/anchors/:anchorId` (dynamic anchors: a person's decision). */
import { Module } from '@nestjs/common';
import { AnchorsController } from './anchors.controller';

@Module({ controllers: [AnchorsController] })
export class AnchorsRoutesModule {}
