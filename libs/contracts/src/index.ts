export * from './limits';
export * from './common';
export * from './step';
export * from './task';
export * from './navigation';
export * from './policy';
export * from './operations';
export * from './topics';
