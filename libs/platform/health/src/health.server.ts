/**
 * Liveness and readiness over plain node:http (STYLE "Services": Kafka and HTTP health in one process).
 * `/health/live` answers 200 while the event loop runs. `/health/ready` runs every registered check
 * (Kafka reachable, Redis ping, …) concurrently, each with a timeout, and answers 200 when all pass and
 * 503 otherwise, with one JSON entry per check so an operator sees which dependency is down.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A readiness check: resolves when the dependency answers, rejects (or times out) when it does not. */
export type HealthCheck = () => Promise<unknown>;

export interface HealthServerOptions {
  /** 0 picks a free port (tests); read it back from `port` of the result. */
  readonly port: number;
  readonly host?: string;
  readonly checks?: Readonly<Record<string, HealthCheck>>;
  /** Per check (default 2 s). */
  readonly checkTimeoutMs?: number;
}

export interface CheckResult {
  readonly status: 'up' | 'down';
  readonly durationMs: number;
  readonly error?: string;
}

export interface ReadinessReport {
  readonly status: 'ready' | 'not_ready';
  readonly checks: Record<string, CheckResult>;
}

export interface HealthServer {
  readonly port: number;
  readonly server: Server;
  /** Adds (or replaces) a readiness check after start, e.g. once a consumer has joined its group. */
  register(name: string, check: HealthCheck): void;
  readiness(): Promise<ReadinessReport>;
  close(): Promise<void>;
}

export async function runChecks(checks: Readonly<Record<string, HealthCheck>>, timeoutMs: number): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        });
        await Promise.race([Promise.resolve().then(check), timeout]);
        return [name, { status: 'up', durationMs: Date.now() - started }];
      } catch (error) {
        return [name, { status: 'down', durationMs: Date.now() - started, error: error instanceof Error ? error.message : String(error) }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const results = Object.fromEntries(entries);
  const ready = entries.every(([, result]) => result.status === 'up');
  return { status: ready ? 'ready' : 'not_ready', checks: results };
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const checks: Record<string, HealthCheck> = { ...options.checks };
  const timeoutMs = options.checkTimeoutMs ?? 2_000;
  const readiness = () => runChecks(checks, timeoutMs);

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: 'method not allowed' });
    if (path === '/health/live') return send(response, 200, { status: 'live' });
    if (path === '/health/ready') {
      readiness().then(
        (report) => send(response, report.status === 'ready' ? 200 : 503, report),
        (error: Error) => send(response, 503, { status: 'not_ready', error: error.message }),
      );
      return;
    }
    send(response, 404, { error: 'not found' });
  });
  // Probes must not keep a stopping process alive.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  return {
    port: (server.address() as AddressInfo).port,
    server,
    register(name, check) {
      checks[name] = check;
    },
    readiness,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}
