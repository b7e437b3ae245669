/**
 * `wayfinder eval trail DIR` (DESIGN §11, shared/data/README.md): runs navigation over every labelled
 * trace of a TRAIL-layout folder and prints one JSON object with trace-level recall, false-positive rate
 * and localization of the loop detectors against `resource abuse` and of `drift` against `goal deviation`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { callIndex, parseTrailLabels, scoreTrail, type ScoredDeviation, type StepIndex } from '@wayfinder/evaluation';
import type { Command, CommandIo } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { navigationHandlers, prepareNavigation } from './navigation-setup';
import { InvalidLineReporter } from './invalid-line-reporter';
import { readStepFile, type StepLineStats } from './step-lines';
import { runEvalPersistence } from './eval-persistence';
import { runEvalAb } from './eval-ab';
import { progressOn } from '../progress';
import { evalHelp } from './eval.help';

export const evalCommand: Command = {
  ...evalHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    if (argv[0] === 'persistence') {
      const { values, positionals } = parseCommandArgs(argv.slice(1), {
        policy: { type: 'string' },
        profile: { type: 'string' },
        task: { type: 'string' },
        goal: { type: 'string' },
        format: { type: 'string' },
        curve: { type: 'string' },
      });
      return runEvalPersistence({ paths: positionals, ...definedOnly(values) }, io);
    }
    if (argv[0] === 'ab') {
      const { values, positionals } = parseCommandArgs(argv.slice(1), {
        agents: { type: 'string' },
        seed: { type: 'string' },
        arms: { type: 'string' },
        rounds: { type: 'string' },
        report: { type: 'string' },
      });
      return runEvalAb(definedOnly(values), positionals, io);
    }
    const { values, positionals } = parseCommandArgs(argv, { policy: { type: 'string' }, profile: { type: 'string' }, embedder: { type: 'string' } });
    const [sub, dir, ...extra] = positionals;
    if (sub === undefined) throw new UsageError("a sub-command is required: 'trail DIR', 'persistence PATH…' or 'ab'");
    if (sub !== 'trail') throw new UsageError(`unknown sub-command '${sub}' (expected 'trail', 'persistence' or 'ab')`);
    if (dir === undefined) throw new UsageError('trail needs a DIR (a folder with labels.json and the JSONL traces)');
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const setup = await prepareNavigation({
      policyFile: values.policy,
      profile: values.profile,
      embedder: values.embedder,
      corrections: true,
      warn: (message) => io.stderr.write(`wayfinder eval: ${message}\n`),
    });
    const labels = await readLabels(dir);

    const deviationsByTrace = new Map<string, ScoredDeviation[]>();
    const stepsByTrace = new Map<string, StepIndex>();
    const stats: StepLineStats = { lines: 0, steps: 0, invalid: 0 };
    const invalid = new InvalidLineReporter(io.stderr, 'wayfinder eval');
    let missing = 0;
    let corrections = 0;
    const progress = progressOn(io.stderr as NodeJS.WriteStream, 'wayfinder eval: traces', { total: labels.length });
    for (const row of labels) {
      progress.tick(1, row.file);
      const file = path.join(dir, row.file);
      try {
        await fs.access(file);
      } catch {
        missing++;
        io.stderr.write(`wayfinder eval: ${file}: labelled trace not found; scored as having no deviations\n`);
        continue;
      }
      // A navigator per trace: no state can leak from one run into the next.
      const navigator = setup.newNavigator();
      const found: ScoredDeviation[] = [];
      const calls: { kind: string; seq: number }[] = [];
      await readStepFile(
        file,
        navigationHandlers(navigator, invalid, (step) => {
          if (step.kind === 'action') calls.push({ kind: step.kind, seq: step.seq });
          const run = () => {
            const result = navigator.onStep(step);
            for (const d of result.deviations) found.push({ detector: d.detector, level: d.level, atSeq: d.atSeq, loopStartSeq: d.loopStartSeq });
            corrections += result.corrections.length;
          };
          return setup.semantic ? navigator.prepare([step]).then(run) : run();
        }),
        stats,
      );
      invalid.endFile(file);
      deviationsByTrace.set(row.traceId, found);
      stepsByTrace.set(row.traceId, callIndex(calls));
    }
    progress.done();

    const score = scoreTrail(labels, (traceId) => deviationsByTrace.get(traceId), undefined, (traceId) => stepsByTrace.get(traceId));
    const report = {
      traces: score.traces,
      positives: score.loop.positives,
      negatives: score.loop.negatives,
      loop: score.loop,
      drift: score.drift,
      profile: setup.profile,
      embedders: Object.fromEntries((['drift', 'semanticRepetition', 'monologue', 'nearDuplicate'] as const).map((d) => [d, setup.vectors.served(setup.policy.embedders[d])])),
      events: stats.steps,
      invalidLines: stats.invalid,
      missingTraces: missing,
      deviations: [...deviationsByTrace.values()].reduce((n, list) => n + list.length, 0),
      corrections,
    };
    io.stdout.write(JSON.stringify(report) + '\n');
    return 0;
  },
};

function definedOnly<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined | boolean> } {
  return Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== 'help' && typeof v === 'string')) as never;
}

async function readLabels(dir: string) {
  const file = path.join(dir, 'labels.json');
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new UsageError(`${file} not found (DIR must hold labels.json and the traces)`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: invalid JSON: ${(error as Error).message}`);
  }
  const parsed = parseTrailLabels(raw);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`);
  return parsed.value;
}
