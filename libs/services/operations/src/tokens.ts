/** Injection tokens of the operators' surface: the history store and the bus it publishes operator actions on. */
export const HISTORY_STORE = Symbol('wayfinder.history-store');
export const OPERATIONS_BUS = Symbol('wayfinder.operations-bus');
export const OPERATIONS_POLICIES = Symbol('wayfinder.operations-policies');
export const OPERATIONS_OPTIONS = Symbol('wayfinder.operations-options');
export const OPERATIONS_SESSIONS = Symbol('wayfinder.operations-sessions');
export const OPERATIONS_VERIFY_KEY = Symbol('wayfinder.operations-verify-key');
/** The operator's history retention bounds (HistoryRetention), shown on the policy page. */
export const OPERATIONS_RETENTION = Symbol('wayfinder.operations-retention');
export const OPERATIONS_SECURE_COOKIE = Symbol('wayfinder.operations-secure-cookie');
