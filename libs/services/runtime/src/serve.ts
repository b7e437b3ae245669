/**
 * Runs services until SIGINT/SIGTERM: telemetry first (so every instrument is exported), then the
 * services, then a graceful stop that finishes in-flight batches and commits them. Used by
 * `wayfinder start` and by each service's own entry point in apps/<service>/src/main.ts.
 */
import { GATEWAY_DEFAULT_PORT, loadConfig, type ServiceName, type WayfinderConfig } from '@wayfinder/config';
import { startTelemetry } from '@wayfinder/telemetry';
import { pipelineServices, startServices, type RunningServices } from './runtime';

/**
 * Process-level safety net (issue 14): a promise rejected with nobody awaiting it (a late callback of a
 * client library, say) is logged and the service keeps running — every handler and timer of ours awaits
 * its work, so such a rejection carries no message of ours. An uncaught exception leaves the process in
 * an unknown state: it is logged and the service stops cleanly (in-flight batches finish and are
 * committed; anything uncommitted is redelivered), exit code 1.
 */
export function installProcessHandlers(log: (line: string) => void, stop: (code: number) => void): () => void {
  const onRejection = (reason: unknown) => log(`wayfinder: unhandled rejection (kept running): ${(reason as Error)?.stack ?? String(reason)}`);
  const onException = (error: Error) => {
    log(`wayfinder: uncaught exception, stopping: ${error.stack ?? String(error)}`);
    stop(1);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

export async function serveUntilStopped(config: WayfinderConfig, version: string, log: (line: string) => void): Promise<void> {
  let fail: (code: number) => void = () => undefined;
  const failed = new Promise<number>((resolve) => (fail = resolve));
  const uninstall = installProcessHandlers(log, (code) => fail(code));
  const telemetry = startTelemetry({ serviceName: `wayfinder-${[...config.services].sort().join('+')}`, serviceVersion: version });
  let running: RunningServices;
  try {
    running = await startServices(config, {
      onFatal: (error) => {
        log(`wayfinder: a consumer stopped for good (${error.message}): stopping so that the process is restarted`);
        fail(1);
      },
    });
  } catch (error) {
    // startServices stopped what it had started; leave nothing else behind that keeps the process alive.
    uninstall();
    await telemetry.shutdown();
    throw error;
  }
  const where = [
    config.mode === 'distributed' ? `on ${config.kafkaBrokers.join(',')}` : 'in process',
    running.health ? `health http://127.0.0.1:${running.health.port}/health/ready` : '',
    running.memory ? `memory API ${running.memory.url}` : '',
    running.gateway ? `gateway ${running.gateway.url}` : '',
  ].filter(Boolean);
  log(`wayfinder: ${config.mode} ${pipelineServices(config).join(', ')} running ${where.join('; ')}; Ctrl-C stops`);
  if (running.gateway) {
    log(
      running.gatewayLocalMode
        ? `wayfinder: gateway in local mode: no API keys configured and bound to ${config.gatewayHost}, so no key is needed; events without a tenantId go to tenant "local" (create a key with 'wayfinder keys create --tenant T' to require keys)`
        : `wayfinder: gateway requires an API key on every request (Authorization: Bearer <key>)`,
    );
  }
  const exitCode = await new Promise<number>((resolve) => {
    process.once('SIGINT', () => resolve(0));
    process.once('SIGTERM', () => resolve(0));
    void failed.then(resolve);
  });
  log('wayfinder: stopping (finishing in-flight batches)…');
  await running.stop();
  await telemetry.shutdown();
  uninstall();
  if (exitCode !== 0) process.exitCode = exitCode;
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
