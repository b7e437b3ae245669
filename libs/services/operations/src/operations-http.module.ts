/**
 * The operators' HTTP surface as one Nest module, for the gateway to import:
 * `OperationsHttpModule.forRoot({ store, bus, policies })`. Its routes take the tenant from
 * `request.wayfinderTenant` (TenantContext), which the gateway's auth guard fills before any handler runs.
 */
import { Module, type DynamicModule } from '@nestjs/common';
import type { Bus } from '@wayfinder/bus';
import { DEFAULT_HISTORY_RETENTION, type HistoryRetention, type HistoryStore } from '@wayfinder/history';
import type { PolicyBook } from '@wayfinder/service-core';
import { DashboardController, type VerifyKey } from './dashboard.controller';
import { FalsePositiveShares } from './false-positive-shares';
import { OperationsController } from './operations.controllers';
import { SessionBook } from './session-book';
import { HISTORY_STORE, OPERATIONS_BUS, OPERATIONS_POLICIES, OPERATIONS_RETENTION, OPERATIONS_SECURE_COOKIE, OPERATIONS_SESSIONS, OPERATIONS_VERIFY_KEY } from './tokens';

export interface OperationsHttpDependencies {
  store: HistoryStore;
  /** Publishes operators' actions (suppressions). */
  bus: Bus;
  /** The process's policy book (webhook, shadow mode, suppression time per tenant). */
  policies: PolicyBook;
  /** Dashboard sessions; the gateway's guard calls `sessions.sessionOfCookie(request.headers.cookie)`. */
  sessions?: SessionBook;
  /** Checks a key typed into the login form (the gateway's key store); absent when no keys are configured. */
  verifyKey?: VerifyKey;
  /** The operator's history retention bounds (the policy page shows a tenant's effective retention); default 7 days, at most 30. */
  retention?: HistoryRetention;
  /** The session cookie gets `Secure` (the gateway is bound beyond loopback). */
  secureCookie?: boolean;
}

@Module({})
export class OperationsHttpModule {
  static forRoot(deps: OperationsHttpDependencies): DynamicModule {
    return {
      module: OperationsHttpModule,
      controllers: [OperationsController, DashboardController],
      providers: [
        { provide: FalsePositiveShares, useFactory: (store: HistoryStore) => new FalsePositiveShares(store), inject: [HISTORY_STORE] },
        { provide: OPERATIONS_SESSIONS, useValue: deps.sessions ?? new SessionBook() },
        ...(deps.verifyKey ? [{ provide: OPERATIONS_VERIFY_KEY, useValue: deps.verifyKey }] : []),
        { provide: OPERATIONS_SECURE_COOKIE, useValue: deps.secureCookie === true },
        { provide: OPERATIONS_RETENTION, useValue: deps.retention ?? DEFAULT_HISTORY_RETENTION },
        { provide: HISTORY_STORE, useValue: deps.store },
        { provide: OPERATIONS_BUS, useValue: deps.bus },
        { provide: OPERATIONS_POLICIES, useValue: deps.policies },
      ],
    };
  }
}
