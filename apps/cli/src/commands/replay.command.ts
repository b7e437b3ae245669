/**
 * `wayfinder replay PATH…` (DESIGN §11): streams StepEvent JSONL files or folders through the whole
 * navigation in process and writes each Deviation (and Correction/Escalation with --corrections) as one
 * JSON line, in event order. Bad lines are reported on stderr as FILE:LINE and skipped.
 */
import type { Navigator } from '@wayfinder/navigation';
import type { Command, CommandIo } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { LineWriter } from './jsonl-writer';
import { navigationHandlers, prepareNavigation } from './navigation-setup';
import { InvalidLineReporter } from './invalid-line-reporter';
import { correctionRow, deviationRow, escalationRow, tableHeader } from './replay-table';
import { listStepFiles } from './step-files';
import { progressOn, type Progress } from '../progress';
import { readStepFile, type StepLineStats } from './step-lines';
import { replayHelp } from './replay.help';

export const replayCommand: Command = {
  ...replayHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      policy: { type: 'string' },
      profile: { type: 'string' },
      embedder: { type: 'string' },
      corrections: { type: 'boolean' },
      format: { type: 'string' },
    });
    if (positionals.length === 0) throw new UsageError('at least one PATH (a .jsonl file or a folder) is required');
    const format = values.format ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'table') throw new UsageError(`--format must be jsonl or table, got '${format}'`);
    const withCorrections = values.corrections === true;
    const setup = await prepareNavigation({
      policyFile: values.policy,
      profile: values.profile,
      embedder: values.embedder,
      corrections: withCorrections,
      warn: (message) => io.stderr.write(`wayfinder replay: ${message}\n`),
    });
    const files = await listStepFiles(positionals);

    const sink: ReplaySink = {
      out: new LineWriter(io.stdout),
      invalid: new InvalidLineReporter(io.stderr, 'wayfinder replay'),
      table: format === 'table',
      withCorrections,
    };
    const stats: StepLineStats = { lines: 0, steps: 0, invalid: 0 };
    try {
      await replayFiles(files, setup.newNavigator(), sink, stats, setup.semantic, progressOn(io.stderr as NodeJS.WriteStream, 'wayfinder replay: files', { total: files.length }));
    } catch (error) {
      // The reader of stdout went away (`replay … | head`): stop quietly, as other Unix tools do.
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
      throw error;
    }
    if (stats.invalid > 0) {
      io.stderr.write(`wayfinder replay: skipped ${stats.invalid} invalid line(s); replayed ${stats.steps} event(s) from ${files.length} file(s)\n`);
    }
    return 0;
  },
};

interface ReplaySink {
  out: LineWriter;
  invalid: InvalidLineReporter;
  table: boolean;
  withCorrections: boolean;
}

/** One Navigator over all files in order, so an agent whose steps span several files keeps its state. */
async function replayFiles(files: readonly string[], navigator: Navigator, sink: ReplaySink, stats: StepLineStats, semantic: boolean, progress: Progress): Promise<void> {
  const { out, invalid, table, withCorrections } = sink;
  if (table) out.line(tableHeader());
  try {
    for (const file of files) {
      await readStepFile(
        file,
        navigationHandlers(navigator, invalid, (step) => {
          if (out.failed) throw out.failed;
          // A semantic embedder embeds the step's texts first (async); hashing stays synchronous.
          return semantic ? navigator.prepare([step]).then(() => emit(step)) : emit(step);
        }),
        stats,
      );
      invalid.endFile(file);
      progress.tick(1, file);
    }
  } finally {
    progress.done(); // on a TTY only: a pipe gets nothing
  }
  await out.flush();

  function emit(step: Parameters<Navigator['onStep']>[0]): Promise<void> | undefined {
        const result = navigator.onStep(step);
        let pending: Promise<void> | undefined;
        for (const d of result.deviations) pending = (table ? out.line(deviationRow(d)) : out.json(d)) ?? pending;
        if (withCorrections) {
          for (const c of result.corrections) pending = (table ? out.line(correctionRow(c)) : out.json(c)) ?? pending;
          for (const e of result.escalations) pending = (table ? out.line(escalationRow(e)) : out.json(e)) ?? pending;
        }
        return pending;
  }
}
