export * from './task-parser.module';
export * from './task.handler';
export * from './anchor-change.handler';
