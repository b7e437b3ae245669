/** Runs `bin/wayfinder.js` as a real process (what a user sees on stderr, libraries' own console lines included). */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import * as path from 'node:path';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const bin = path.resolve(__dirname, '..', '..', '..', '..', 'bin', 'wayfinder.js');

/** Resolves when the process exits, or kills it after `timeoutMs` (code null). */
export function runCliProcess(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    }),
  );
}

/** A port nothing listens on: bound, then released (a dependency that is down). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
