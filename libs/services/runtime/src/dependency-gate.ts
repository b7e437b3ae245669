/**
 * The process's dependency gate (DESIGN §7, §14): after a failed batch, the bus asks whether every
 * dependency answers. While one does not, consumption pauses (heartbeating, nothing committed or
 * dead-lettered) until it answers again, instead of retrying good messages into the dead-letter topic.
 * The dependencies are Redis (distributed mode) and the long-term memory store when the memory service
 * runs in this process on a server (Qdrant): fused, its writes are inside the steps batch.
 */
import type { DependencyGate } from '@wayfinder/bus';
import type Redis from 'ioredis';

export interface Dependency {
  /** Named in the pause and resume lines. */
  readonly name: string;
  /** Whether it answers now, bounded in time. */
  answers(): Promise<boolean>;
}

/** A gate over `dependencies` (read at every check: a service started later adds its own). */
export function dependencyGate(dependencies: readonly Dependency[], log: (line: string) => void): DependencyGate {
  let down: readonly string[] = [];
  let pausedFor: readonly string[] = [];
  return {
    async ready() {
      const answered = await Promise.all(dependencies.map((d) => d.answers().catch(() => false)));
      down = dependencies.filter((_, i) => !answered[i]).map((d) => d.name);
      return down.length === 0;
    },
    onChange(paused, pausedMs) {
      if (paused) {
        pausedFor = down.length > 0 ? down : pausedFor;
        log(`wayfinder: ${listed(pausedFor)} ${pausedFor.length > 1 ? 'do' : 'does'} not answer: consumption paused`);
      } else {
        log(`wayfinder: ${listed(pausedFor)} ${pausedFor.length > 1 ? 'answer' : 'answers'} again after ${pausedMs} ms: consumption resumed`);
      }
    },
  };
}

/** Redis answers a PING within a second. */
export async function redisAnswers(redis: Redis): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 1_000)));
  try {
    return await Promise.race([redis.ping().then((r) => r === 'PONG', () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function listed(names: readonly string[]): string {
  if (names.length === 0) return 'a dependency';
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
