/** Test-only entry of @wayfinder/service-operations: the header guard standing in for the gateway's. */
export * from './header-tenant.guard.testing';
export * from './escalation-notifier.testing';
