/**
 * A Redis server of the test's own (redis-server on PATH), on a free port, with an append-only file
 * fsynced on every write, so a test can kill it (SIGKILL: no shutdown save) and start it again on the
 * same port with its data — without ever touching the shared Redis on 6379.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export class OwnRedis {
  private child?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'wayfinder-chaos-redis-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and directory; resolves once it accepts connections. */
  async up(): Promise<void> {
    let failed: Error | undefined;
    try {
      this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
    } catch (error) {
      throw new Error(`cannot start redis-server (is it on PATH? apt-get install redis-server): ${(error as Error).message}`);
    }
    this.child.once('error', (error) => (failed = error));
    const started = Date.now();
    while (!(await answers(this.port))) {
      if (failed) throw new Error(`cannot start redis-server (is it on PATH?): ${failed.message}`);
      if (Date.now() - started > 10_000) throw new Error(`redis-server on port ${this.port} did not answer within 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGKILL: the outage starts now. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Stops for good and removes its files. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
