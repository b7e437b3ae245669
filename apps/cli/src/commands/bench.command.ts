/**
 * `wayfinder bench detectors|floor|pipeline|gateway|proxy` (DESIGN §11). `detectors` runs the detector benchmark that lives
 * next to the detectors (libs/domain/detection/bench); `pipeline` runs apps/cli/src/bench/pipeline-bench
 * against a real Kafka broker. Each prints one JSON object with the machine it ran on. Benchmark code is
 * loaded only when asked for, so the rest of the CLI never pays for it. Benchmarks that are not product
 * commands (worker memory, failover, embedders, memory/history, ingest, state memory) live in tools/bench.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { ConfigError, loadConfig } from '@wayfinder/config';
import type { Command, CommandIo } from '../command';
import { UsageError } from '../command';
import { intOption, numberOption, parseCommandArgs } from '../args';
import { benchHelp } from './bench.help';

interface DetectorBenchOptions {
  agents: number;
  events: number;
  stateAgents: number;
}

type RunDetectorBench = (options: DetectorBenchOptions) => unknown | Promise<unknown>;

const DETECTOR_BENCH = path.join(__dirname, '..', '..', '..', '..', 'libs', 'domain', 'detection', 'bench', 'detectors.bench');

export const benchCommand: Command = {
  ...benchHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      agents: { type: 'string' },
      events: { type: 'string' },
      'state-agents': { type: 'string' },
      kafka: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      'looping-share': { type: 'string' },
      partitions: { type: 'string' },
      telemetry: { type: 'boolean' },
      separate: { type: 'boolean' },
      pipeline: { type: 'string' },
      messages: { type: 'string' },
      backlog: { type: 'string' },
      decompose: { type: 'boolean' },
      concurrency: { type: 'string' },
      requests: { type: 'string' },
      turns: { type: 'string' },
      client: { type: 'string' },
      rounds: { type: 'string' },
      streams: { type: 'string' },
    });
    const [which, ...extra] = positionals;
    const benchmarks = ['detectors', 'floor', 'pipeline', 'gateway', 'proxy'];
    if (which === undefined) throw new UsageError(`a benchmark is required: ${benchmarks.map((b) => `'${b}'`).join(', ')}`);
    if (!benchmarks.includes(which)) throw new UsageError(`unknown benchmark '${which}' (expected ${benchmarks.map((b) => `'${b}'`).join(', ')})`);
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const only = (names: string[], mode = '') => {
      const stray = Object.keys(values).find((k) => k !== 'help' && !names.includes(k));
      if (stray) throw new UsageError(`--${stray} does not apply to 'bench ${which}${mode}'`);
    };

    let options: object;
    let results: unknown;
    if (which === 'detectors') {
      only(['agents', 'events', 'state-agents']);
      const detectorOptions: DetectorBenchOptions = {
        agents: intOption(values.agents, 'agents', 1000),
        events: intOption(values.events, 'events', 200_000),
        stateAgents: intOption(values['state-agents'], 'state-agents', 100_000),
      };
      options = detectorOptions;
      exposeGc();
      results = await loadDetectorBench()(detectorOptions);
    } else if (which === 'floor') {
      only(['kafka', 'agents', 'messages', 'partitions', 'client', 'rounds']);
      const client = values.client ?? 'kafkajs';
      if (client !== 'kafkajs' && client !== 'platformatic' && client !== 'both') throw new UsageError(`--client must be kafkajs, platformatic or both, got '${client}'`);
      if (values.rounds !== undefined && client !== 'both') throw new UsageError('--rounds applies to --client both only');
      const floorOptions = {
        brokers: brokersOf(values.kafka),
        agents: intOption(values.agents, 'agents', 1000),
        messages: intOption(values.messages, 'messages', 100_000),
        partitions: intOption(values.partitions, 'partitions', 12),
      };
      const log = (line: string) => io.stderr.write(`wayfinder bench: ${line}\n`);
      const { runFloorBench, runFloorComparison } = await import('../bench/floor-bench');
      if (client === 'both') {
        const comparison = { ...floorOptions, rounds: intOption(values.rounds, 'rounds', 3) };
        options = comparison;
        results = await runFloorComparison(comparison, log);
      } else {
        options = { ...floorOptions, client };
        results = await runFloorBench({ ...floorOptions, client }, log);
      }
    } else if (which === 'gateway' && values.streams !== undefined) {
      only(['kafka', 'streams', 'requests'], ' --streams');
      const streamsOptions = {
        brokers: values.kafka === undefined ? undefined : brokersOf(values.kafka),
        streams: intOption(values.streams, 'streams', 1_000),
        requests: intOption(values.requests, 'requests', 300),
      };
      options = streamsOptions;
      const { runGatewayStreamsBench } = await import('../bench/gateway-bench');
      results = await runGatewayStreamsBench(streamsOptions, (line) => io.stderr.write(`wayfinder bench: ${line}\n`));
    } else if (which === 'gateway') {
      only(['kafka', 'agents', 'events', 'concurrency']);
      const gatewayOptions = {
        brokers: values.kafka === undefined ? undefined : brokersOf(values.kafka),
        events: intOption(values.events, 'events', 20_000),
        agents: intOption(values.agents, 'agents', 20),
        concurrency: intOption(values.concurrency, 'concurrency', 4),
      };
      options = gatewayOptions;
      const { runGatewayBench } = await import('../bench/gateway-bench');
      results = await runGatewayBench(gatewayOptions, (line) => io.stderr.write(`wayfinder bench: ${line}\n`));
    } else if (which === 'proxy') {
      only(['kafka', 'agents', 'requests', 'turns']);
      const proxyOptions = {
        brokers: values.kafka === undefined ? undefined : brokersOf(values.kafka),
        requests: intOption(values.requests, 'requests', 2_000),
        agents: intOption(values.agents, 'agents', 20),
        turns: intOption(values.turns, 'turns', 20),
      };
      options = proxyOptions;
      const { runProxyBench } = await import('../bench/proxy-bench');
      results = await runProxyBench(proxyOptions, (line) => io.stderr.write(`wayfinder bench: ${line}\n`));
    } else {
      only(['kafka', 'agents', 'rate', 'duration', 'looping-share', 'partitions', 'telemetry', 'separate', 'pipeline', 'messages', 'backlog', 'decompose']);
      const loopingShare = numberOption(values['looping-share'], 'looping-share', 0.1);
      if (loopingShare > 1) throw new UsageError(`--looping-share must be a number between 0 and 1, got '${values['looping-share']}'`);
      const pipelineOptions = {
        brokers: brokersOf(values.kafka),
        agents: intOption(values.agents, 'agents', 1000),
        rate: intOption(values.rate, 'rate', 0, 0),
        durationSec: intOption(values.duration, 'duration', 30),
        loopingShare,
        partitions: intOption(values.partitions, 'partitions', 12),
        telemetry: values.telemetry === true,
        separate: values.separate === true,
        pipeline: pipelineOf(values.pipeline),
        floorMessages: intOption(values.messages, 'messages', 100_000, 0),
        backlog: intOption(values.backlog, 'backlog', 0, 0),
        decompose: values.decompose === true,
      };
      options = pipelineOptions;
      const { runPipelineBench } = await import('../bench/pipeline-bench');
      results = await runPipelineBench(pipelineOptions, (line) => io.stderr.write(`wayfinder bench: ${line}\n`));
    }
    const cpus = os.cpus();
    const report = { ...(results as Record<string, unknown>), options, node: process.version, cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length };
    io.stdout.write(JSON.stringify(report) + '\n');
    return 0;
  },
};

function brokersOf(kafka: string | undefined): string[] {
  try {
    return loadConfig(process.env, { kafka }).kafkaBrokers;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** Bytes per agent is a heap difference between two full collections; without gc() it is noise. */
function exposeGc(): void {
  const global = globalThis as { gc?: () => void };
  if (typeof global.gc === 'function') return;
  v8.setFlagsFromString('--expose-gc');
  global.gc = vm.runInNewContext('gc') as () => void;
}

function loadDetectorBench(): RunDetectorBench {
  // Required lazily and by path: bench code is not part of @wayfinder/detection's public API.
  const loaded = require(DETECTOR_BENCH) as { runDetectorBench?: RunDetectorBench };
  if (typeof loaded.runDetectorBench !== 'function') throw new Error(`${DETECTOR_BENCH} does not export runDetectorBench`);
  return loaded.runDetectorBench;
}

/** --pipeline: one of the pipelines WAYFINDER_PIPELINE names. */
function pipelineOf(value: unknown): 'one-pass' | 'separate' | undefined {
  if (value === undefined) return undefined;
  if (value === 'one-pass' || value === 'separate') return value;
  throw new UsageError(`--pipeline must be one-pass or separate, got ${JSON.stringify(value)}`);
}
