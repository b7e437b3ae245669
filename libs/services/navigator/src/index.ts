export * from './navigator.module';
export * from './navigation.handler';
export * from './stage-documents';
