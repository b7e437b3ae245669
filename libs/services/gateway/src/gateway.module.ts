/**
 * The gateway as a Nest module (DESIGN §12): every route family of GATEWAY_ROUTE_MODULES over the
 * gateway's own providers (authenticator, correction log, options, ingest limiter, agents' pending corrections). It needs the globals
 * of WayfinderCoreModule (BUS, MAP_STORE, POLICY_BOOK). The guard and the error filter are installed on
 * the HTTP app by `startGatewayService` (not on the bus transport's handlers).
 */
import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { HistoryStore } from '@wayfinder/history';
import { InMemoryStepSeqs, type CorrectionLog, type StepSeqs, type TenantAuthenticator } from '@wayfinder/tenancy';
import { GATEWAY_ROUTE_MODULES } from './gateway-routes';
import { AgentCorrections } from './agent-corrections';
import { IngestLimiter } from './ingest-limiter';
import { StreamSlots } from './routes/corrections/stream-slots';
import { AUTHENTICATOR, CORRECTION_LOG, DEFAULT_GATEWAY_OPTIONS, GATEWAY_HEALTH, GATEWAY_HISTORY, GATEWAY_OPTIONS, STEP_SEQS, type GatewayHealth, type GatewayOptions } from './tokens';

export interface GatewayDependencies {
  authenticator: TenantAuthenticator;
  correctionLog: CorrectionLog;
  /** Seqs of hook and MCP steps (default in memory: one instance, embedded mode). */
  stepSeqs?: StepSeqs;
  options?: Partial<GatewayOptions>;
  /** The operators' history (when the operations module is mounted): a resume appends its ack there. */
  history?: HistoryStore;
  /** The process's readiness checks, for `/health/ready` on the gateway's port. */
  health?: GatewayHealth;
}

@Global()
@Module({})
class GatewayProvidersModule {}

@Module({})
export class GatewayModule {
  static forRoot(deps: GatewayDependencies): DynamicModule {
    const providers: Provider[] = [
      { provide: AUTHENTICATOR, useValue: deps.authenticator },
      { provide: CORRECTION_LOG, useValue: deps.correctionLog },
      { provide: STEP_SEQS, useValue: deps.stepSeqs ?? new InMemoryStepSeqs() },
      { provide: GATEWAY_OPTIONS, useValue: { ...DEFAULT_GATEWAY_OPTIONS, ...deps.options } },
      { provide: GATEWAY_HISTORY, useValue: deps.history ?? null },
      { provide: GATEWAY_HEALTH, useValue: deps.health ?? { checks: {} } },
      IngestLimiter,
      AgentCorrections,
      // One set of stream caps for the correction streams and the fleet's: both hold connections open.
      StreamSlots,
    ];
    const shared: DynamicModule = { module: GatewayProvidersModule, global: true, providers, exports: [AUTHENTICATOR, CORRECTION_LOG, STEP_SEQS, GATEWAY_OPTIONS, GATEWAY_HISTORY, GATEWAY_HEALTH, IngestLimiter, AgentCorrections, StreamSlots] };
    return { module: GatewayModule, imports: [shared, ...GATEWAY_ROUTE_MODULES] };
  }
}
