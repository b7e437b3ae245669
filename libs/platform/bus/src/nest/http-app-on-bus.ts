/**
 * An HTTP Nest app that also consumes from the bus (the gateway, the memory service): the bus transport
 * connected in its own consumer group, shutdown hooks, the server bound, and a stop that closes it once.
 */
import type { INestApplication } from '@nestjs/common';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { Bus } from '../bus';
import { HandlerErrorFilter } from './handler-error.filter';
import { BusTransport } from './bus.transport';

export interface HttpAppOnBusOptions {
  bus: Bus;
  groupId: string;
  stopBusOnClose?: boolean;
  instanceId?: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

export interface ListeningHttpApp {
  /** `http://host:port`, the port actually bound (an IPv6 host in brackets). */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function listenOnBus(app: INestApplication, options: HttpAppOnBusOptions): Promise<ListeningHttpApp> {
  app
    .connectMicroservice<MicroserviceOptions>({
      strategy: new BusTransport(options.bus, { groupId: options.groupId, stopBusOnClose: options.stopBusOnClose, instanceId: options.instanceId }),
    })
    .useGlobalFilters(new HandlerErrorFilter());
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen(options.port ?? 0, host);
  } catch (error) {
    // A port in use (EADDRINUSE) after the bus started consuming: close the app, and with it the bus's
    // consumers, or their sockets keep a `wayfinder start` that already failed alive.
    await app.close().catch((closeError: unknown) => {
      throw new AggregateError([error, closeError], `${(error as Error).message}; closing the app failed too: ${(closeError as Error).message}`);
    });
    throw error;
  }
  const port = (app.getHttpServer().address() as { port: number }).port;
  let stopped = false;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await app.close();
    },
  };
}
