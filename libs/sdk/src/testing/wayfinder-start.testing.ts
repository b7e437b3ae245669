/**
 * Runs the real `node bin/wayfinder.js start` (embedded: every service and the gateway in one process)
 * on a free port, in a temporary working directory, for the SDK's integration tests; stopped by its pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

export interface WayfinderStart {
  baseUrl: string;
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startWayfinder(env: Record<string, string> = {}, startupMs = 120_000): Promise<WayfinderStart> {
  const port = await freePort();
  const cwd = mkdtempSync(path.join(tmpdir(), 'wayfinder-sdk-start-'));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WAYFINDER_')));
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'bin/wayfinder.js'), 'start', '--port', String(port)], {
    cwd,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startupMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wayfinder start exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(`${baseUrl}/v1/agents/probe/corrections`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the gateway did not answer on ${baseUrl} within ${startupMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    log: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
