/**
 * Runs services until SIGINT/SIGTERM: telemetry first (so every instrument is exported), then the
 * services, then a graceful stop that finishes in-flight batches and commits them. Used by
 * `wayfinder start` and by each service's own entry point in apps/<service>/src/main.ts.
 */
import { GATEWAY_DEFAULT_PORT, loadConfig, type ServiceName, type WayfinderConfig } from '@wayfinder/config';
import { startTelemetry } from '@wayfinder/telemetry';
import { startServices } from './runtime';

export async function serveUntilStopped(config: WayfinderConfig, version: string, log: (line: string) => void): Promise<void> {
  const telemetry = startTelemetry({ serviceName: `wayfinder-${[...config.services].sort().join('+')}`, serviceVersion: version });
  const running = await startServices(config);
  const where = [
    config.mode === 'distributed' ? `on ${config.kafkaBrokers.join(',')}` : 'in process',
    running.health ? `health http://127.0.0.1:${running.health.port}/health/ready` : '',
    running.memory ? `memory API ${running.memory.url}` : '',
    running.gateway ? `gateway ${running.gateway.url}` : '',
  ].filter(Boolean);
  log(`wayfinder: ${config.mode} ${config.services.join(', ')} running ${where.join('; ')}; Ctrl-C stops`);
  if (running.gateway) {
    log(
      running.gatewayLocalMode
        ? `wayfinder: gateway in local mode: no API keys configured and bound to ${config.gatewayHost}, so no key is needed; events without a tenantId go to tenant "local" (create a key with 'wayfinder keys create --tenant T' to require keys)`
        : `wayfinder: gateway requires an API key on every request (Authorization: Bearer <key>)`,
    );
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  log('wayfinder: stopping (finishing in-flight batches)…');
  await running.stop();
  await telemetry.shutdown();
}

/** The whole main() of a service's own entry point (apps/<service>/src/main.ts). */
export function runServiceMain(service: ServiceName): void {
  let config: WayfinderConfig;
  try {
    config = loadConfig(process.env, { mode: process.env.WAYFINDER_MODE ?? 'distributed', services: service, port: process.env.WAYFINDER_GATEWAY_PORT ?? String(GATEWAY_DEFAULT_PORT) });
  } catch (error) {
    process.stderr.write(`${service}: ${(error as Error).message}\n`);
    process.exit(2);
  }
  serveUntilStopped(config, process.env.npm_package_version ?? '0.1.0', (line) => process.stderr.write(line + '\n')).catch((error: unknown) => {
    process.stderr.write(`${service}: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
