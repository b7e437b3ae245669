export * from './trail-labels';
export * from './trail-score';
export * from './lead-time';
export * from './goal-persistence';
export * from './persistence-curve-svg';
export * from './bootstrap';
export * from './wilson';
export * from './goal-persistence-ab';
