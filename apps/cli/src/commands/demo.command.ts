/** `wayfinder demo` (what `npm start` runs): a simulated fleet through the whole pipeline, embedded (DESIGN §11). */
import * as path from 'node:path';
import { intOption, parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { runDemo, summaryLines } from '../demo/run-demo';

const USAGE = `usage: wayfinder demo [--agents N] [--duration SECONDS] [--seed K] [--report FILE.html] [--metrics-file FILE.json]

Runs a simulated fleet of agents over three tenants (balanced, strict and lenient policies) through the
whole pipeline in this process — task parsing, localization, detection, correction — with a live view,
then writes an HTML report. Some agents fall into the failures of DESIGN §1 (loops, dead polls,
ping-pong, rephrased searches, monologues, stagnation, drift); their chance to recover depends on what a
correction says (libs/testing/src/fleet/recovery-model.ts). The report shows persistence curves.
  --agents N         agents in the fleet (default 300)
  --duration S       seconds to run (default 20); sets the number of rounds, so a slow machine takes longer
                     but does the same work; the run ends earlier when every agent is done or frozen
  --seed K           the same seed gives the same fleet and the same summary numbers (default 1)
  --report FILE      where to write the HTML report (default wayfinder-report.html)
  --metrics-file F   also write the run's metrics as JSON (OpenTelemetry metrics of the services)`;

const MAX_AGENTS = 5_000;
const MAX_DURATION_S = 3_600;

export const demoCommand: Command = {
  name: 'demo',
  summary: 'run a simulated fleet through the embedded pipeline and write an HTML report',
  usage: USAGE,
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
