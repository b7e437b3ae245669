export * from './fleet.types';
export * from './prng';
export * from './simulated-fleet';
export { TASK_TEMPLATES, type TaskTemplate, type MilestoneTemplate, type CallSpec } from './task-catalog';
export type { StepBody } from './failure-patterns';
export * from './navigate-fleet';
export * from './recovery-model';
export * from './delegation-rounds';
export * from './same-input-every-runtime';
