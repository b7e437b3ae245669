export * from './navigation-ports';
export * from './navigator';
export * from './ladder-stage';
export * from './create-navigator';
export { AnchorStage, anchorChangeEvent, type AnchorOutcome } from './anchor-stage';
export * from './navigation-state';
