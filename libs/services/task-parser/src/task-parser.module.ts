import { Module } from '@nestjs/common';
import { TaskHandler } from './task.handler';

@Module({ controllers: [TaskHandler] })
export class TaskParserModule {}
