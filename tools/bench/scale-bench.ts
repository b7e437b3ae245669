/**
 * The worker-memory and failover benchmarks (issue: fleet pipeline; not product commands, so they live
 * in tools/bench rather than `wayfinder bench`): what one
 * detector worker holds for a large fleet, and how long a partition stops being detected when it moves
 * between workers. Both run detector-worker processes (`wayfinder start --services detector-worker`) on
 * the real broker and Redis and feed them localized steps directly, so they measure the worker alone.
 *
 * Run (broker and Redis up: npm run infra:up), one JSON object on stdout:
 *   node bin/run-ts.js tools/bench/scale-bench.ts worker-memory [--kafka BROKERS] [--agents N] [--steps N] [--partitions N] [--unique-goals]
 *   node bin/run-ts.js tools/bench/scale-bench.ts failover [--kafka BROKERS] [--agents N] [--rate N] [--partitions N] [--session-timeout MS]
 * worker-memory: memory one detector worker adds for the fleet (every detector, drift included), and what
 *   is left after the tenants' policies set a 1 s idle TTL. Defaults: 100000 agents, 32 steps, 6 partitions;
 *   --unique-goals gives every agent a goal text of its own.
 * failover: workers joining, stopping and crashing under steady load: the longest time a partition with
 *   waiting steps is not processed, per move. Defaults: 2000 agents, 1000 steps/s, 6 partitions,
 *   session timeout 10000 ms (the broker's minimum is 6000).
 */
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import { AssignerProtocol, type Admin } from 'kafkajs';
import type { LocalizedStep, StepEvent, TenantPolicy } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { startWayfinderChild, stopChild, type WayfinderChild } from '../../apps/cli/src/bench/child';
import { benchAdmin, committedCount } from '../../apps/cli/src/bench/offsets';
import { everyDetectorStep } from './fleet-steps';

const LOCALIZED = 'wayfinder.localized.v1';
const GROUP = 'bench.detector-worker';

export interface WorkerMemoryOptions {
  brokers: string[];
  agents: number;
  /** Steps per agent (fleet-steps.ts: a 16-step cycle touching every detector, drift included). */
  steps: number;
  partitions: number;
  /** Every agent with a goal text of its own (fleet-steps.ts `uniqueGoals`): no reference is shared. */
  uniqueGoals?: boolean;
}

export interface WorkerMemoryResult {
  agents: number;
  steps: number;
  /** What the worker retains after a full collection (heap + buffers), idle and after every agent's steps. */
  retainedIdleMb: number;
  retainedLoadedMb: number;
  addedMb: number;
  addedBytesPerAgent: number;
  /** Resident memory at the same two points (includes garbage not yet returned to the system). */
  rssIdleMb: number;
  rssLoadedMb: number;
  eventsPerSec: number;
  deviations: number;
  /** After the tenants' policies set a 1 s idle TTL and one eviction tick: what is left above idle. */
  retainedAfterEvictionMb: number;
  addedAfterEvictionMb: number;
  rssAfterEvictionMb: number;
}

/** The detector worker's idle eviction runs every 30 s (DurableAgentStates.evictIdle). */
const EVICTION_TICK_MS = 30_000;

export async function runWorkerMemoryBench(options: WorkerMemoryOptions, log: (line: string) => void): Promise<WorkerMemoryResult> {
  const prefix = `bench-mem-${Date.now().toString(36)}.`;
  await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: options.partitions });
  const worker = startWayfinderChild({ brokers: options.brokers, prefix, services: 'detector-worker', memoryProbe: true });
  const bus = new KafkaBus({ brokers: options.brokers, topicPrefix: prefix, clientId: 'bench-mem' });
  let deviations = 0;
  bus.subscribe('wayfinder.deviations.v1', async (batch) => void (deviations += batch.length), { groupId: 'bench-observer' });
  const admin = benchAdmin(options.brokers);
  try {
    await Promise.all([worker.ready, bus.start(), admin.connect()]);
    await sleep(3_000);
    const idle = await worker.retainedMemory();
    const idleRss = worker.rssBytes() ?? 0;
    const total = options.agents * options.steps;
    const started = Date.now();
    // Step by step across the fleet (every agent's first step, then every agent's second…), as a fleet runs.
    const chunk = 2_000;
    let published = 0;
    for (let seq = 0; seq < options.steps; seq++) {
      for (let from = 0; from < options.agents; from += chunk) {
        const batch: LocalizedStep[] = [];
        for (let a = from; a < Math.min(options.agents, from + chunk); a++) batch.push(localizedOf(everyDetectorStep(a, seq, undefined, options.uniqueGoals === true)));
        await bus.publish(LOCALIZED, batch);
        published += batch.length;
      }
      log(`published ${published}/${total}`);
    }
    await waitForCount(() => committedCount(admin, prefix + GROUP, prefix + LOCALIZED), total, Math.max(600_000, total * 2), (n) => log(`processed ${n}/${total}; worker RSS ${mb(worker.rssBytes() ?? 0)} MB`)).catch((error: Error) => {
      throw new Error(`${error.message}; the worker's last output:\n${worker.output()}`);
    });
    const seconds = (Date.now() - started) / 1000;
    await sleep(2_000);
    const loaded = await worker.retainedMemory();
    const loadedRss = worker.rssBytes() ?? 0;
    const added = retained(loaded) - retained(idle);
    // Idle eviction: every tenant's policy now says 1 s; after the next eviction tick the agents are out
    // of memory (their state stays in Redis, restored on their next event).
    const ts = new Date().toISOString();
    const tenants = [...new Set(Array.from({ length: Math.min(options.agents, 3) }, (_, a) => everyDetectorStep(a, 0).tenantId))];
    const policies: TenantPolicy[] = tenants.map((tenantId) => ({ schema: 'wayfinder.policy.v1', eventId: `bench-ttl-${tenantId}`, tenantId, ts, policy: {}, stateIdleTtlMs: 1_000 }));
    await bus.publish('wayfinder.policies.v1', policies);
    log(`policies with a 1 s idle TTL published; waiting ${EVICTION_TICK_MS / 1000 + 5} s for the eviction tick`);
    await sleep(EVICTION_TICK_MS + 5_000);
    const evicted = await worker.retainedMemory();
    const evictedRss = worker.rssBytes() ?? 0;
    return {
      agents: options.agents,
      steps: options.steps,
      retainedIdleMb: mb(retained(idle)),
      retainedLoadedMb: mb(retained(loaded)),
      addedMb: mb(added),
      addedBytesPerAgent: Math.round(added / options.agents),
      rssIdleMb: mb(idleRss),
      rssLoadedMb: mb(loadedRss),
      eventsPerSec: Math.round(total / seconds),
      deviations,
      retainedAfterEvictionMb: mb(retained(evicted)),
      addedAfterEvictionMb: mb(retained(evicted) - retained(idle)),
      rssAfterEvictionMb: mb(evictedRss),
    };
  } finally {
    await stopChild(worker);
    await bus.stop().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

export interface FailoverOptions {
  brokers: string[];
  agents: number;
  /** Localized steps per second during the whole run. */
  rate: number;
  partitions: number;
  sessionTimeoutMs: number;
}

export interface FailoverResult {
  /** Longest time, per phase, that a partition with unprocessed steps saw its committed offset stand still. */
  steadyStallMs: number;
  scaleOutStallMs: number;
  gracefulStopStallMs: number;
  crashStallMs: number;
  /** After each phase: partitions held per worker (client id), to show the moves happened. */
  ownersAfter: Record<string, Record<string, number>>;
  sessionTimeoutMs: number;
  partitions: number;
  rate: number;
}

/**
 * Three moves, each measured as the longest stall of any partition that had steps waiting: a second
 * worker joins (scale-out: partitions move to it), that worker stops with SIGTERM (it leaves the group;
 * its partitions move back), a third worker joins and is killed with SIGKILL (its partitions move when
 * the group notices, after the session timeout). A stall ends when the new owner commits past the steps
 * it restored state for and detected on. Offsets are polled every 100 ms, so the steady-state stall
 * (a partition that is busy, between two commits) is about that interval.
 */
export async function runFailoverBench(options: FailoverOptions, log: (line: string) => void): Promise<FailoverResult> {
  const prefix = `bench-move-${Date.now().toString(36)}.`;
  await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: options.partitions });
  const env = { WAYFINDER_KAFKA_SESSION_TIMEOUT_MS: String(options.sessionTimeoutMs) };
  const workers: WayfinderChild[] = [];
  const startWorker = (name: string) => {
    const worker = startWayfinderChild({ brokers: options.brokers, prefix, services: 'detector-worker', env: { ...env, WAYFINDER_KAFKA_CLIENT_ID: name } });
    workers.push(worker);
    return worker;
  };
  const bus = new KafkaBus({ brokers: options.brokers, topicPrefix: prefix, clientId: 'bench-move' });
  const admin = benchAdmin(options.brokers);
  const watch = new StallWatch(admin, prefix);
  let loading = true;
  try {
    await Promise.all([startWorker('worker-a').ready, bus.start(), admin.connect()]);
    const seqs = new Array<number>(options.agents).fill(0);
    const perTick = Math.max(1, Math.round(options.rate / 20));
    let agent = 0;
    const load = (async () => {
      while (loading) {
        const batch: LocalizedStep[] = [];
        for (let i = 0; i < perTick; i++) {
          batch.push(localizedOf(pollingStep(agent, seqs[agent]++)));
          agent = (agent + 1) % options.agents;
        }
        await bus.publish(LOCALIZED, batch);
        await sleep(50);
      }
    })();
    const watching = watch.run();
    const ownersAfter: Record<string, Record<string, number>> = {};
    const phase = async (name: string, act: () => Promise<void>, settleMs: number) => {
      watch.reset();
      await act();
      await sleep(settleMs);
      const stall = watch.maxStallMs();
      const owners = await partitionOwners(admin, prefix + GROUP);
      log(`${name}: longest partition stall ${stall} ms; partitions per worker now: ${JSON.stringify(owners)}`);
      ownersAfter[name] = owners;
      return stall;
    };
    const steadyStallMs = await phase('steady', async () => undefined, 6_000);
    const scaleOutStallMs = await phase('scale-out', async () => void startWorker('worker-b'), 15_000);
    const gracefulStopStallMs = await phase('graceful stop', () => stopChild(workers[1], 'SIGTERM'), 8_000);
    const third = startWorker('worker-c');
    await third.ready;
    await sleep(5_000);
    const crashStallMs = await phase('crash', () => stopChild(third, 'SIGKILL'), options.sessionTimeoutMs + 8_000);
    loading = false;
    await load;
    watch.stop();
    await watching;
    return { steadyStallMs, scaleOutStallMs, gracefulStopStallMs, crashStallMs, ownersAfter, sessionTimeoutMs: options.sessionTimeoutMs, partitions: options.partitions, rate: options.rate };
  } finally {
    loading = false;
    watch.stop();
    for (const worker of workers) await stopChild(worker);
    await bus.stop().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

/** Polls committed and end offsets every 100 ms and keeps, per partition, how long it has been stuck. */
class StallWatch {
  private running = true;
  private worst = 0;
  private readonly since = new Map<number, { offset: number; at: number; behind: boolean }>();

  constructor(
    private readonly admin: Admin,
    private readonly prefix: string,
  ) {}

  reset(): void {
    this.worst = 0;
  }

  maxStallMs(): number {
    return this.worst;
  }

  stop(): void {
    this.running = false;
  }

  async run(): Promise<void> {
    const topic = this.prefix + LOCALIZED;
    while (this.running) {
      const [ends, groups] = await Promise.all([
        this.admin.fetchTopicOffsets(topic),
        this.admin.fetchOffsets({ groupId: this.prefix + GROUP, topics: [topic] }),
      ]);
      const now = Date.now();
      const end = new Map(ends.map((p) => [p.partition, Number(p.high)]));
      for (const p of groups[0]?.partitions ?? []) {
        const offset = Number(p.offset);
        const last = this.since.get(p.partition);
        // Stalled: behind the end at the last look and not moved since. An admin call can itself wait out
        // a rebalance, so a stall is also counted when the offset has moved by the next look.
        if (last?.behind) this.worst = Math.max(this.worst, now - last.at);
        if (!last || offset !== last.offset || !last.behind) this.since.set(p.partition, { offset, at: now, behind: offset < (end.get(p.partition) ?? 0) });
      }
      await sleep(100);
    }
  }
}

async function partitionOwners(admin: Admin, groupId: string): Promise<Record<string, number>> {
  const { groups } = await admin.describeGroups([groupId]);
  const owners: Record<string, number> = {};
  for (const member of groups[0]?.members ?? []) {
    const assignment = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
    const held = Object.values(assignment?.assignment ?? {}).reduce((n, partitions) => n + partitions.length, 0);
    owners[member.clientId] = (owners[member.clientId] ?? 0) + held;
  }
  return owners;
}

/** An agent polling a job that never finishes: a dead-poll loop the detectors count on every call. */
function pollingStep(agent: number, seq: number): StepEvent {
  const call = Math.floor(seq / 2);
  const agentId = `agent-${agent}`;
  const base = { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${seq}`, tenantId: `tenant-${agent % 3}`, agentId, taskId: 'bench', runId: 'r1', seq, ts: new Date().toISOString() };
  return seq % 2 === 0
    ? { ...base, kind: 'action', action: { tool: 'job_status', args: { job: `job-${agent}` }, callId: `c${call}` } }
    : { ...base, kind: 'observation', observation: { tool: 'job_status', callId: `c${call}`, ok: true, content: { state: 'pending' } } };
}

function localizedOf(step: StepEvent): LocalizedStep {
  return {
    schema: 'wayfinder.localized.v1',
    eventId: step.eventId,
    tenantId: step.tenantId,
    ts: step.ts,
    step,
    position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' },
  };
}

async function waitForCount(count: () => Promise<number>, target: number, timeoutMs: number, progress: (n: number) => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let nextLog = Date.now() + 5_000;
  for (let n = await count(); n < target; n = await count()) {
    if (Date.now() > deadline) throw new Error(`${n} of ${target} after ${timeoutMs} ms`);
    if (Date.now() >= nextLog) {
      progress(n);
      nextLog = Date.now() + 5_000;
    }
    await sleep(250);
  }
}

/** Heap in use plus memory outside the heap (buffers, typed arrays' backing stores). */
function retained(usage: NodeJS.MemoryUsage): number {
  return usage.heapUsed + usage.external;
}

function mb(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      kafka: { type: 'string' },
      agents: { type: 'string' },
      steps: { type: 'string' },
      rate: { type: 'string' },
      partitions: { type: 'string' },
      'session-timeout': { type: 'string' },
      'unique-goals': { type: 'boolean' },
    },
    allowPositionals: true,
  });
  const which = positionals[0];
  const int = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
  const brokers = loadConfig(process.env, { kafka: values.kafka }).kafkaBrokers;
  const log = (line: string) => process.stderr.write(`scale-bench: ${line}\n`);
  let options: object;
  let results: object;
  if (which === 'worker-memory') {
    const memory = { brokers, agents: int(values.agents, 100_000), steps: int(values.steps, 32), partitions: int(values.partitions, 6), uniqueGoals: values['unique-goals'] === true };
    options = memory;
    results = await runWorkerMemoryBench(memory, log);
  } else if (which === 'failover') {
    const failover = { brokers, agents: int(values.agents, 2_000), rate: int(values.rate, 1_000), partitions: int(values.partitions, 6), sessionTimeoutMs: Math.max(6_000, int(values['session-timeout'], 10_000)) };
    options = failover;
    results = await runFailoverBench(failover, log);
  } else {
    process.stderr.write('usage: node bin/run-ts.js tools/bench/scale-bench.ts worker-memory|failover [options] (see the head of this file)\n');
    process.exitCode = 2;
    return;
  }
  const cpus = os.cpus();
  process.stdout.write(JSON.stringify({ ...results, options, node: process.version, cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length }) + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`scale-bench: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
