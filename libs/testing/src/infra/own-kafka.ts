/**
 * A Kafka broker of the test's own, started by deploy/local/infra-up.sh on free ports
 * (WAYFINDER_KAFKA_PORT, WAYFINDER_KAFKA_CONTROLLER_PORT) with its own state directory, so a chaos test
 * can kill and restart it without touching the shared broker on 9092. The jars are fetched once into
 * `.wayfinder/chaos-broker` (Maven); the data starts empty on every run.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './own-redis';

const run = promisify(execFile);
const root = join(__dirname, '..', '..', '..', '..');

export class OwnKafka {
  private readonly state = join(root, '.wayfinder', 'chaos-broker');

  private constructor(
    readonly port: number,
    private readonly controllerPort: number,
    private readonly redisPort: number,
  ) {}

  /** `redisPort`: a Redis the test already runs (infra-up leaves a Redis that answers alone). */
  static async start(redisPort: number): Promise<OwnKafka> {
    const kafka = new OwnKafka(await freePort(), await freePort(), redisPort);
    rmSync(join(kafka.state, 'kafka', 'data'), { recursive: true, force: true });
    await kafka.up();
    return kafka;
  }

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  private get env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      WAYFINDER_KAFKA_PORT: String(this.port),
      WAYFINDER_KAFKA_CONTROLLER_PORT: String(this.controllerPort),
      WAYFINDER_REDIS_PORT: String(this.redisPort),
      WAYFINDER_STATE_DIR: this.state,
      WAYFINDER_KAFKA_HEAP: '384m',
    };
  }

  /** Starts (again); resolves once the broker answers metadata. */
  async up(): Promise<void> {
    try {
      await run('bash', [join(root, 'deploy', 'local', 'infra-up.sh')], { env: this.env, timeout: 180_000 });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`could not start the test's own Kafka broker on port ${this.port}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  }

  /** SIGKILL: the broker is gone now (its data stays, as after a crash). */
  async kill(): Promise<void> {
    const pid = Number(readFileSync(join(this.state, 'kafka', 'kafka.pid'), 'utf8').trim());
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      return;
    }
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Stops the broker (infra-down.sh: only what infra-up started here) and removes its data. */
  async stop(): Promise<void> {
    await run('bash', [join(root, 'deploy', 'local', 'infra-down.sh')], { env: this.env, timeout: 90_000 }).catch(() => undefined);
    rmSync(join(this.state, 'kafka', 'data'), { recursive: true, force: true });
  }
}
