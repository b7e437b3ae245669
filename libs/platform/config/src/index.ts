export * from './config';
export * from './kafka-security';
export * from './egress';
export * from './egress-request';
export * from './mcp-servers';
