/**
 * `wayfinder bench floor` (issue #17): what a bare kafkajs hop costs on this broker and machine, so that
 * the pipeline's CPU per step has a baseline measured in the same conditions (the same run, when
 * `bench pipeline` runs it first). The same topic layout as `bench pipeline` (its own prefix, the same
 * partitions) and the same step events: they are published first, then a child process (floor-worker.ts)
 * consumes them in batches, parses each and produces each to the localized topic (one hop, idempotent
 * producer), and reports messages/s and its CPU µs per message from its first batch to its last.
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
}

export interface FloorBenchResult {
  messages: number;
  messagesPerSec: number;
  cpuMicrosPerMessage: number;
  elapsedMs: number;
}

const root = join(__dirname, '..', '..', '..', '..');

export async function runFloorBench(options: FloorBenchOptions, log: (line: string) => void): Promise<FloorBenchResult> {
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
  const result = await runWorker({
    FLOOR_BROKERS: options.brokers.join(','),
    FLOOR_FROM: `${prefix}wayfinder.steps.v1`,
    FLOOR_TO: `${prefix}wayfinder.localized.v1`,
    FLOOR_GROUP: `${prefix}floor`,
    FLOOR_EXPECT: String(options.messages),
  });
  return {
    messages: result.messages,
    messagesPerSec: Math.round((result.messages * 1000) / Math.max(1, result.elapsedMs)),
    cpuMicrosPerMessage: Math.round((result.cpuMicros / result.messages) * 10) / 10,
    elapsedMs: result.elapsedMs,
  };
}

function runWorker(env: Record<string, string>): Promise<{ messages: number; elapsedMs: number; cpuMicros: number }> {
  const child = spawn(process.execPath, ['--require', '@swc-node/register', join(__dirname, 'floor-worker.ts')], {
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
