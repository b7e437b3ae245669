/**
 * A Wayfinder process for the Kafka benchmarks: `wayfinder start --mode distributed [--services …]` in a
 * child process on its own topic prefix, so the load generator's CPU stays apart from the pipeline's.
 * `WAYFINDER_BENCH_NODE_ARGS` passes node flags to it (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');
/** USER_HZ of /proc/<pid>/stat: 100 on Linux on every architecture Node supports. */
const CLOCK_TICKS_PER_SEC = 100;

export interface WayfinderChild {
  readonly child: ChildProcess;
  /** Resolves when the services consume (their "running" line); rejects if the process exits first. */
  readonly ready: Promise<void>;
  readonly exited: Promise<number | null>;
  /** What the process wrote to stderr so far (the last 4 KB). */
  output(): string;
  /** Resident memory of the process now, in bytes (Linux /proc; undefined elsewhere or after exit). */
  rssBytes(): number | undefined;
  /** CPU time (user + system) the process has used so far, in seconds (Linux /proc). */
  cpuSeconds(): number | undefined;
  /** With `memoryProbe`: process.memoryUsage() after a full collection in the child. */
  retainedMemory(): Promise<NodeJS.MemoryUsage>;
}

export interface ChildOptions {
  brokers: readonly string[];
  prefix: string;
  services?: string;
  env?: Record<string, string>;
  /** Preload memory-probe.js with --expose-gc, for retainedMemory(). */
  memoryProbe?: boolean;
  /** Preload latency-probe.js, writing its lines to this file (label `pipeline`): `bench pipeline --decompose`. */
  latencyProbeFile?: string;
}

export function startWayfinderChild(options: ChildOptions): WayfinderChild {
  const nodeArgs = (process.env.WAYFINDER_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  if (options.memoryProbe) nodeArgs.push('--expose-gc', '--require', join(__dirname, 'memory-probe.js'));
  if (options.latencyProbeFile) nodeArgs.push('--require', join(__dirname, 'latency-probe.js'));
  const args = [...nodeArgs, join(root, 'bin', 'wayfinder.js'), 'start', '--mode', 'distributed', ...(options.services ? ['--services', options.services] : [])];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      WAYFINDER_TOPIC_PREFIX: options.prefix,
      WAYFINDER_KAFKA_BROKERS: options.brokers.join(','),
      WAYFINDER_GROUP_PREFIX: 'bench',
      WAYFINDER_HTTP_PORT: '0',
      ...(options.latencyProbeFile ? { WAYFINDER_LATENCY_PROBE: options.latencyProbeFile, WAYFINDER_LATENCY_PROBE_LABEL: 'pipeline' } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const probes: Array<(usage: NodeJS.MemoryUsage) => void> = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    const line = /memory-probe (\{.*\})/.exec(chunk.toString());
    if (line) for (const resolve of probes.splice(0)) resolve(JSON.parse(line[1]) as NodeJS.MemoryUsage);
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4096);
      if (log.includes('running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`wayfinder exited (${code}) before it was ready:\n${log}`)));
  });
  ready.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    ready,
    exited,
    output: () => log,
    cpuSeconds() {
      try {
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SEC;
      } catch {
        return undefined;
      }
    },
    retainedMemory() {
      if (!options.memoryProbe) return Promise.reject(new Error('started without memoryProbe'));
      const reading = new Promise<NodeJS.MemoryUsage>((resolve) => probes.push(resolve));
      child.kill('SIGUSR2');
      return reading;
    },
    rssBytes() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = /VmRSS:\s+(\d+) kB/.exec(status);
        return kb ? Number(kb[1]) * 1024 : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export async function stopChild(running: WayfinderChild, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill(signal);
  await running.exited;
}
