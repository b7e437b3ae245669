export * from './trail-labels';
export * from './trail-score';
export * from './goal-persistence';
export * from './wilson';
