/**
 * Runs the gateway as a hybrid Nest app: the HTTP API on its port, and the corrections feed on the Bus
 * transport in the gateway's own consumer group. Nest's body parser is off: routes read their bodies
 * with the gateway's limits and answer malformed ones in the API's error shape.
 */
import 'reflect-metadata';
import { Module, type INestApplication, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { BusTransport, type Bus } from '@wayfinder/bus';
import { HashingEmbedder, type SyncEmbedder } from '@wayfinder/embeddings';
import { InMemoryMapStore, PolicyBook, WayfinderCoreModule, type MapStore } from '@wayfinder/service-core';
import type { CorrectionLog, TenantAuthenticator } from '@wayfinder/tenancy';
import { TenantGuard } from './auth/tenant.guard';
import { GatewayModule } from './gateway.module';
import { ApiErrorFilter } from './http/api-error';
import type { GatewayOptions } from './tokens';

export interface GatewayServiceOptions {
  bus: Bus;
  authenticator: TenantAuthenticator;
  correctionLog: CorrectionLog;
  mapStore?: MapStore;
  /** Shared with the co-located services, so a PUT /v1/policy applies in this process at once. */
  policyBook?: PolicyBook;
  embedder?: SyncEmbedder;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  groupId?: string;
  instanceId?: string;
  stopBusOnClose?: boolean;
  options?: Partial<GatewayOptions>;
  logger?: LoggerService | false;
}

export interface RunningGateway {
  readonly app: INestApplication;
  /** `http://host:port`, the port actually bound. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function startGatewayService(options: GatewayServiceOptions): Promise<RunningGateway> {
  const core = WayfinderCoreModule.forRoot({
    bus: options.bus,
    mapStore: options.mapStore ?? new InMemoryMapStore(),
    policyBook: options.policyBook ?? new PolicyBook(),
    embedder: options.embedder ?? new HashingEmbedder(),
  });

  @Module({ imports: [core, GatewayModule.forRoot({ authenticator: options.authenticator, correctionLog: options.correctionLog, options: options.options })] })
  class GatewayAppModule {}

  const app = await NestFactory.create(GatewayAppModule, { bodyParser: false, logger: options.logger ?? ['error', 'warn'] });
  app.useGlobalGuards(new TenantGuard(options.authenticator));
  app.useGlobalFilters(new ApiErrorFilter());
  app.connectMicroservice<MicroserviceOptions>({
    strategy: new BusTransport(options.bus, { groupId: options.groupId ?? 'wayfinder.gateway', stopBusOnClose: options.stopBusOnClose, instanceId: options.instanceId }),
  });
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  const host = options.host ?? '127.0.0.1';
  await app.listen(options.port ?? 0, host);
  const address = app.getHttpServer().address() as { port: number };
  let stopped = false;
  return {
    app,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    port: address.port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await app.close();
    },
  };
}
