/**
 * Runs the gateway as a hybrid Nest app: the HTTP API on its port, and the corrections feed on the Bus
 * transport in the gateway's own consumer group. Nest's body parser is off: routes read their bodies
 * with the gateway's limits and answer malformed ones in the API's error shape (only the dashboard's
 * `POST /login` form is parsed here, urlencoded, 16 KiB at most). With `operations`, the
 * operators' surface (OperationsHttpModule: query API and dashboard) is mounted on the same server,
 * behind the same guard.
 */
import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, type INestApplication, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { listenOnBus, type Bus } from '@wayfinder/bus';
import type { HistoryRetention, HistoryStore } from '@wayfinder/history';
import { OperationsHttpModule, SessionBook, type TenantContext } from '@wayfinder/service-operations';
import { HashingEmbedder, type SyncEmbedder } from '@wayfinder/embeddings';
import { InMemoryMapStore, PolicyBook, WayfinderCoreModule, type MapStore } from '@wayfinder/service-core';
import { hashApiKey, isLoopbackHost, type CorrectionLog, type StepSeqs, type TenantAuthenticator } from '@wayfinder/tenancy';
import { FailedKeyLimiter } from './auth/failed-key-limiter';
import { TenantGuard } from './auth/tenant.guard';
import { GatewayModule } from './gateway.module';
import { ProxyPassthroughModule } from './routes/proxy/proxy-passthrough.module';
import { ApiErrorFilter } from './http/api-error';
import type { GatewayHealth, GatewayOptions } from './tokens';

const LOGIN_FORM_MAX_BYTES = 16 * 1024;

/** Parses the login form's urlencoded body into `req.body` (the dashboard's `POST /login`); other methods pass. */
function loginFormParser(req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (error?: unknown) => void): void {
  if (req.method !== 'POST') return next();
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > LOGIN_FORM_MAX_BYTES) {
      res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the login form is larger than 16 KiB' }));
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > LOGIN_FORM_MAX_BYTES) return;
    req.body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    next();
  });
  req.on('error', next);
}

export interface GatewayServiceOptions {
  bus: Bus;
  authenticator: TenantAuthenticator;
  correctionLog: CorrectionLog;
  /** Seqs of hook and MCP steps; default in memory (stepSeqsFor picks Redis in distributed mode). */
  stepSeqs?: StepSeqs;
  mapStore?: MapStore;
  /** Shared with the co-located services, so a PUT /v1/policy applies in this process at once. */
  policyBook?: PolicyBook;
  embedder?: SyncEmbedder;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** PEM certificate and key: the gateway serves HTTPS (its session cookie is then `Secure`). */
  tls?: { cert: Buffer; key: Buffer };
  groupId?: string;
  instanceId?: string;
  stopBusOnClose?: boolean;
  options?: Partial<GatewayOptions>;
  logger?: LoggerService | false;
  /** Mounts the operators' surface (query API, dashboard) over this history store. */
  operations?: { store: HistoryStore; sessions?: SessionBook; retention?: HistoryRetention };
  /** The process's readiness checks: `/health/ready` on the gateway's own port runs them (no key needed). */
  health?: GatewayHealth;
}

export interface RunningGateway {
  readonly app: INestApplication;
  /** `http(s)://host:port`, the port actually bound. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function startGatewayService(options: GatewayServiceOptions): Promise<RunningGateway> {
  const policyBook = options.policyBook ?? new PolicyBook();
  const core = WayfinderCoreModule.forRoot({
    bus: options.bus,
    mapStore: options.mapStore ?? new InMemoryMapStore(),
    policyBook,
    embedder: options.embedder ?? new HashingEmbedder(),
  });
  const sessions = options.operations ? (options.operations.sessions ?? new SessionBook()) : undefined;
  const authenticator = options.authenticator;
  // A key typed into the dashboard's login form: an operator key may act, a viewer key only reads.
  // The session keeps the key's hash, which the guard re-checks on every request (revocation ends it);
  // wrong keys count against the client's address like failed bearer keys.
  const failures = new FailedKeyLimiter();
  // Served over TLS or bound beyond loopback, the session cookie is `Secure`: browsers send it over HTTPS
  // only (the gateway's own TLS, `tls`, or a TLS proxy in front).
  const secureCookie = options.tls !== undefined || !isLoopbackHost((options.host ?? '127.0.0.1').replace(/^\[|\]$/g, ''));
  const verifyKey = async (key: string, address?: string): Promise<TenantContext | undefined> => {
    failures.assertAllowed(address);
    const tenant = key ? await authenticator.resolve(key) : undefined;
    if (!tenant) {
      failures.fail(address);
      return undefined;
    }
    return { tenantId: tenant.tenantId, operator: tenant.role === 'operator', local: tenant.local, keyHash: hashApiKey(key) };
  };
  const gateway = GatewayModule.forRoot({ authenticator, correctionLog: options.correctionLog, ...(options.stepSeqs && { stepSeqs: options.stepSeqs }), options: options.options, history: options.operations?.store, health: options.health });
  const operations = options.operations ? [OperationsHttpModule.forRoot({ store: options.operations.store, retention: options.operations.retention, bus: options.bus, policies: policyBook, sessions, verifyKey, secureCookie })] : [];

  // The proxy's passthrough last: it takes the `/v1/...` paths no route before it serves.
  @Module({ imports: [core, gateway, ...operations, ProxyPassthroughModule] })
  class GatewayAppModule {}

  const app = await NestFactory.create(GatewayAppModule, { bodyParser: false, logger: options.logger ?? ['error', 'warn'], ...(options.tls && { httpsOptions: options.tls }) });
  if (options.operations) app.use('/login', loginFormParser);
  app.useGlobalGuards(new TenantGuard(authenticator, sessions, failures));
  app.useGlobalFilters(new ApiErrorFilter());
  const listening = await listenOnBus(app, { bus: options.bus, groupId: options.groupId ?? 'wayfinder.gateway', stopBusOnClose: options.stopBusOnClose, instanceId: options.instanceId, host: options.host, port: options.port });
  const url = options.tls ? listening.url.replace(/^http:/, 'https:') : listening.url;
  return { app, url, port: listening.port, stop: () => listening.stop() };
}
