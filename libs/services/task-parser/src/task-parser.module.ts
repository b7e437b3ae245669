import { Module } from '@nestjs/common';
import { AnchorChangeHandler } from './anchor-change.handler';
import { TaskHandler } from './task.handler';

@Module({ controllers: [TaskHandler, AnchorChangeHandler] })
export class TaskParserModule {}
