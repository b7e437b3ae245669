/**
 * Wayfinder services as child processes (`wayfinder start --mode distributed`), for tests that kill them
 * (SIGKILL: no shutdown hook runs, nothing is flushed) and start them again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Resolves once the process says it is running; rejects if it exits before. */
  readonly ready: Promise<void>;
  readonly exited: Promise<number | null>;
  /** Everything it wrote to stderr so far. */
  log(): string;
}

const root = join(__dirname, '..', '..', '..', '..');

export function startServiceProcess(services: string, env: Record<string, string>, name = services): ServiceProcess {
  const child = spawn(process.execPath, [join(root, 'bin', 'wayfinder.js'), 'start', '--mode', 'distributed', '--services', services], {
    cwd: root,
    env: { ...process.env, WAYFINDER_KAFKA_SESSION_TIMEOUT_MS: '6000', WAYFINDER_KAFKA_CLIENT_ID: name, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${log}`)));
  });
  ready.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, log: () => log };
}

/** Stops a service process gracefully (SIGTERM), or kills it after `graceMs`. */
export async function stopServiceProcess(service: ServiceProcess, graceMs = 15_000): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), graceMs);
  await service.exited;
  clearTimeout(timer);
}

/** The one line of figures every chaos test prints. */
export function chaosFigures(name: string, figures: { sent: number; processed: number; duplicated: number; lost: number; deadLettered: number }): string {
  const line = `chaos ${name}: sent ${figures.sent}, processed ${figures.processed}, duplicated ${figures.duplicated}, lost ${figures.lost}, dead-lettered ${figures.deadLettered}`;
  process.stdout.write(line + '\n');
  return line;
}
