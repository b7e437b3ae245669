/**
 * Runs services until SIGINT/SIGTERM: telemetry first (so every instrument is exported), then the
 * services, then a graceful stop that finishes in-flight batches and commits them. Used by
 * `wayfinder start` and by each service's own entry point in apps/<service>/src/main.ts.
 */
import type { WayfinderConfig } from '@wayfinder/config';
import { startTelemetry } from '@wayfinder/telemetry';
import { startServices } from './runtime';

export async function serveUntilStopped(config: WayfinderConfig, version: string, log: (line: string) => void): Promise<void> {
  const telemetry = startTelemetry({ serviceName: `wayfinder-${[...config.services].sort().join('+')}`, serviceVersion: version });
  const running = await startServices(config);
  const where = [
    config.mode === 'distributed' ? `on ${config.kafkaBrokers.join(',')}` : 'in process',
    running.health ? `health http://127.0.0.1:${running.health.port}/health/ready` : '',
    running.memory ? `memory API ${running.memory.url}` : '',
  ].filter(Boolean);
  log(`wayfinder: ${config.mode} ${config.services.join(', ')} running ${where.join('; ')}; Ctrl-C stops`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  log('wayfinder: stopping (finishing in-flight batches)…');
  await running.stop();
  await telemetry.shutdown();
}
