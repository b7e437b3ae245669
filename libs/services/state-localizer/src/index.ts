export * from './state-localizer.module';
export * from './step.handler';
export * from './pending-steps';
