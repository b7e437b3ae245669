export * from './state-localizer.module';
export * from './step.handler';
export * from './pending-steps';
export * from './held-steps.store';
export * from './localizer-states';
