export * from './tokens';
export * from './gateway.module';
export * from './gateway-routes';
export * from './start-gateway';
export * from './key-stores';
export * from './http/api-error';
export * from './auth/tenant.guard';
export * from './auth/failed-key-limiter';
export { ChatCompletionsController } from './routes/proxy/chat-completions.controller';
