export { startHealthServer, runChecks, type HealthCheck, type HealthServer, type HealthServerOptions, type CheckResult, type ReadinessReport } from './health.server';
export { kafkaCheck, redisCheck } from './checks';
