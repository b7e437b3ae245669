export * from './task-parser.module';
export * from './task.handler';
