/** `wayfinder demo` (what `npm start` runs): a simulated fleet through the whole pipeline, embedded (DESIGN §11). */
import * as path from 'node:path';
import { intOption, parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { runDemo, summaryLines } from '../demo/run-demo';
import { demoHelp } from './demo.help';

const MAX_AGENTS = 5_000;
const MAX_DURATION_S = 3_600;

export const demoCommand: Command = {
  ...demoHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      agents: { type: 'string' },
      duration: { type: 'string' },
      seed: { type: 'string' },
      report: { type: 'string' },
      'metrics-file': { type: 'string' },
    }, false);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const agents = intOption(values.agents, 'agents', 300);
    if (agents > MAX_AGENTS) throw new UsageError(`--agents must be at most ${MAX_AGENTS}, got ${agents}`);
    const durationS = intOption(values.duration, 'duration', 20);
    if (durationS > MAX_DURATION_S) throw new UsageError(`--duration must be at most ${MAX_DURATION_S} seconds, got ${durationS}`);
    const seed = intOption(values.seed, 'seed', 1, 0);
    if (values.report === '') throw new UsageError('--report needs a file name');
    if (values['metrics-file'] === '') throw new UsageError('--metrics-file needs a file name');
    const reportPath = path.resolve(values.report ?? 'wayfinder-report.html');
    const metricsFile = values['metrics-file'] ? path.resolve(values['metrics-file']) : undefined;

    const tty = (io.stdout as NodeJS.WriteStream).isTTY === true;
    const result = await runDemo({ agents, durationS, seed, reportPath, ...(metricsFile ? { metricsFile } : {}), out: io.stdout, tty });
    io.stdout.write(`\n${summaryLines(result.summary).join('\n')}\n`);
    io.stdout.write(`report     ${result.reportPath}${metricsFile ? `\nmetrics    ${metricsFile}` : ''}\n`);
    return 0;
  },
};
