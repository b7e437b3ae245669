export * from './state-localizer.module';
export * from './step.handler';
export { PendingSteps, type PendingStepsOptions } from '@wayfinder/cognitive-map';
export * from './held-steps.store';
export * from './localizer-states';
