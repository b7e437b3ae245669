/**
 * The process's dependency gate (DESIGN §7, §14): after a failed batch, the bus asks whether every
 * dependency answers. While one does not, consumption pauses (heartbeating, nothing committed or
 * dead-lettered) until it answers again, instead of retrying good messages into the dead-letter topic.
 * The dependencies are Redis (distributed mode) and the long-term memory store when the memory service
 * runs in this process on a server (Qdrant): beside the navigator, its writes are inside the steps batch. Each is a
 * readiness check of @wayfinder/health, run as /health/ready runs them (concurrently, each bounded).
 */
import type { DependencyGate } from '@wayfinder/bus';
import { runChecks, type HealthCheck } from '@wayfinder/health';

/** A gate over `checks`, by the name the pause and resume lines give (read at every check: a service started later adds its own). */
export function dependencyGate(checks: Readonly<Record<string, HealthCheck>>, log: (line: string) => void, timeoutMs = 1_000): DependencyGate {
  let down: readonly string[] = [];
  let pausedFor: readonly string[] = [];
  return {
    async ready() {
      const report = await runChecks(checks, timeoutMs);
      down = Object.entries(report.checks)
        .filter(([, result]) => result.status === 'down')
        .map(([name]) => name);
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

function listed(names: readonly string[]): string {
  if (names.length === 0) return 'a dependency';
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
