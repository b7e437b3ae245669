/**
 * `wayfinder bench floor` (issue #17): what a bare kafkajs hop costs on this broker and machine, so that
 * the pipeline's CPU per step has a baseline measured in the same conditions (the same run, when
 * `bench pipeline` runs it first). The same topic layout as `bench pipeline` (its own prefix, the same
 * partitions) and the same step events: they are published first, then a child process (floor-worker.ts)
 * consumes them in batches, parses each and produces each to the localized topic (one hop, idempotent
 * producer), and reports messages/s and its CPU µs per message from its first batch to its last.
 * `client` picks the Kafka client of that worker: kafkajs (the bus's default) or @platformatic/kafka
 * (floor-worker-platformatic.ts, the same work); runFloorComparison runs both in turn on the same
 * published steps, pair by pair, so a loaded machine still gives a comparable ratio.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { StepEvent } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { stepOf } from './steps';

export interface FloorBenchOptions {
  brokers: string[];
  agents: number;
  /** Messages through the floor (published before it starts). */
  messages: number;
  partitions: number;
  /** Kafka client of the pass-through worker (default kafkajs). */
  client?: FloorClient;
}

export type FloorClient = 'kafkajs' | 'platformatic';

const WORKERS: Record<FloorClient, string> = { kafkajs: 'floor-worker.ts', platformatic: 'floor-worker-platformatic.ts' };

export interface FloorBenchResult {
  messages: number;
  messagesPerSec: number;
  cpuMicrosPerMessage: number;
  elapsedMs: number;
}

const root = join(__dirname, '..', '..', '..', '..');

export async function runFloorBench(options: FloorBenchOptions, log: (line: string) => void): Promise<FloorBenchResult> {
  const prefix = await publishSteps(options, log);
  return runPassThrough(options.brokers, prefix, options.client ?? 'kafkajs', `${prefix}floor`, options.messages);
}

export interface FloorComparisonResult {
  /** One entry per round, in the order they ran (kafkajs first in each round). */
  rounds: { kafkajs: FloorBenchResult; platformatic: FloorBenchResult; cpuRatio: number }[];
  /** Medians over the rounds; cpuRatio is platformatic's CPU per message over kafkajs', pair by pair. */
  median: { kafkajsMessagesPerSec: number; platformaticMessagesPerSec: number; kafkajsCpuMicrosPerMessage: number; platformaticCpuMicrosPerMessage: number; cpuRatio: number };
}

/**
 * Both clients on the same published steps: each round runs the kafkajs worker, then the platformatic one,
 * each in a consumer group of its own that reads the topic from the beginning.
 */
export async function runFloorComparison(options: FloorBenchOptions & { rounds: number }, log: (line: string) => void): Promise<FloorComparisonResult> {
  const prefix = await publishSteps(options, log);
  const rounds: FloorComparisonResult['rounds'] = [];
  for (let round = 0; round < options.rounds; round++) {
    const kafkajs = await runPassThrough(options.brokers, prefix, 'kafkajs', `${prefix}floor-kafkajs-${round}`, options.messages);
    const platformatic = await runPassThrough(options.brokers, prefix, 'platformatic', `${prefix}floor-platformatic-${round}`, options.messages);
    const cpuRatio = Math.round((platformatic.cpuMicrosPerMessage / kafkajs.cpuMicrosPerMessage) * 100) / 100;
    log(`floor round ${round + 1}: kafkajs ${kafkajs.messagesPerSec} msg/s ${kafkajs.cpuMicrosPerMessage} µs/msg, platformatic ${platformatic.messagesPerSec} msg/s ${platformatic.cpuMicrosPerMessage} µs/msg (${cpuRatio}x)`);
    rounds.push({ kafkajs, platformatic, cpuRatio });
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : Math.round(((sorted[mid - 1] + sorted[mid]) / 2) * 100) / 100;
  };
  return {
    rounds,
    median: {
      kafkajsMessagesPerSec: median(rounds.map((r) => r.kafkajs.messagesPerSec)),
      platformaticMessagesPerSec: median(rounds.map((r) => r.platformatic.messagesPerSec)),
      kafkajsCpuMicrosPerMessage: median(rounds.map((r) => r.kafkajs.cpuMicrosPerMessage)),
      platformaticCpuMicrosPerMessage: median(rounds.map((r) => r.platformatic.cpuMicrosPerMessage)),
      cpuRatio: median(rounds.map((r) => r.cpuRatio)),
    },
  };
}

/** Creates the floor's topics under a fresh prefix and publishes the steps; returns the prefix. */
async function publishSteps(options: FloorBenchOptions, log: (line: string) => void): Promise<string> {
  const prefix = `floor-${Date.now().toString(36)}.`;
  await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: options.partitions });
  const bus = new KafkaBus({ brokers: options.brokers, topicPrefix: prefix, clientId: 'bench-floor-load' });
  try {
    await bus.start();
    const seqs = new Array<number>(options.agents).fill(0);
    let agent = 0;
    for (let published = 0; published < options.messages; ) {
      const batch: StepEvent[] = [];
      for (let i = 0; i < 1_000 && published + i < options.messages; i++) {
        batch.push(stepOf(agent, seqs[agent]++, false));
        agent = (agent + 1) % options.agents;
      }
      await bus.publish('wayfinder.steps.v1', batch);
      published += batch.length;
    }
  } finally {
    await bus.stop().catch(() => undefined);
  }
  log(`floor: ${options.messages} steps published; the pass-through consumes them`);
  return prefix;
}

async function runPassThrough(brokers: string[], prefix: string, client: FloorClient, group: string, messages: number): Promise<FloorBenchResult> {
  const result = await runWorker(WORKERS[client], {
    FLOOR_BROKERS: brokers.join(','),
    FLOOR_FROM: `${prefix}wayfinder.steps.v1`,
    FLOOR_TO: `${prefix}wayfinder.localized.v1`,
    FLOOR_GROUP: group,
    FLOOR_EXPECT: String(messages),
  });
  return {
    messages: result.messages,
    messagesPerSec: Math.round((result.messages * 1000) / Math.max(1, result.elapsedMs)),
    cpuMicrosPerMessage: Math.round((result.cpuMicros / result.messages) * 10) / 10,
    elapsedMs: result.elapsedMs,
  };
}

function runWorker(worker: string, env: Record<string, string>): Promise<{ messages: number; elapsedMs: number; cpuMicros: number }> {
  const child = spawn(process.execPath, ['--require', '@swc-node/register', join(__dirname, worker)], {
    cwd: root,
    env: { ...process.env, SWC_NODE_PROJECT: join(root, 'tsconfig.base.json'), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    let result: { messages: number; elapsedMs: number; cpuMicros: number } | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`floor: no result after 120 s:\n${output.slice(-2_000)}`));
    }, 120_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /floor-result (\{.*\})/.exec(output);
      if (!line || result) return;
      clearTimeout(timer);
      result = JSON.parse(line[1]) as { messages: number; elapsedMs: number; cpuMicros: number };
      child.kill('SIGTERM');
    });
    // Settled once the worker is gone, so that it does not share the cores with what runs next.
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else reject(new Error(`floor worker exited (${code}) before its result:\n${output.slice(-2_000)}`));
    });
  });
}
