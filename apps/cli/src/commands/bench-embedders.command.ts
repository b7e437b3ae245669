/**
 * `wayfinder bench embedders` (DESIGN §5.6): detector throughput with each embedder choice and µs per
 * embedded text (apps/cli/src/bench/embedders-bench.ts). Reached from `wayfinder bench embedders`.
 */
import * as os from 'node:os';
import type { Command, CommandIo } from '../command';
import { UsageError } from '../command';
import { intOption, parseCommandArgs } from '../args';

export const BENCH_EMBEDDERS_USAGE = `usage: wayfinder bench embedders [--events N] [--agents N] [--batch N]

embedders: the detection engine with drift over a synthetic fleet, once per embedder choice (hashing
everywhere; minilm or bge-zh for drift, semantic_repetition and monologue), each batch's texts
prefetched as the detector worker does: detector events/s per choice, its ratio to hashing measured in
the same run, and µs per embedded text per embedder. Needs the model files (npm run models:fetch);
a choice whose files are absent is skipped, saying so.
  --events N   events per run (default 3000)
  --agents N   agents the events are spread over (default 100)
  --batch N    events per batch (default 200)
`;

export const benchEmbeddersCommand: Command = {
  name: 'bench embedders',
  summary: 'detector throughput with each embedder choice and µs per embedded text',
  usage: BENCH_EMBEDDERS_USAGE,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, { events: { type: 'string' }, agents: { type: 'string' }, batch: { type: 'string' } });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const options = {
      events: intOption(values.events, 'events', 3000),
      agents: intOption(values.agents, 'agents', 100),
      batch: intOption(values.batch, 'batch', 200),
    };
    const { runEmbeddersBench } = await import('../bench/embedders-bench');
    const results = await runEmbeddersBench(options, (line) => io.stderr.write(`wayfinder bench: ${line}\n`));
    const cpus = os.cpus();
    io.stdout.write(JSON.stringify({ ...results, options, node: process.version, cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length }) + '\n');
    return 0;
  },
};
