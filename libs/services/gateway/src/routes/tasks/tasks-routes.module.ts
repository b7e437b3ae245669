/** Route family `POST /v1/tasks`. */
import { Module } from '@nestjs/common';
import { TasksController } from './tasks.controller';

@Module({ controllers: [TasksController] })
export class TasksRoutesModule {}
