/**
 * `npm run eval`: the balanced profile on ../shared/data/trail-dev (loop and drift recall, false-positive
 * rate, localization, with 95% Wilson intervals, and the lead time: calls from a caught loop's onset to its
 * first deviation, libs/domain/evaluation/src/lead-time.ts), then the 5-fold cross-validations that chose its loop
 * and drift thresholds (held-out recall and FPR per fold, mean and spread). The data stays outside the repository: without it
 * this says so and exits 0. Usage: node bin/run-ts.js libs/domain/detection/tuning/evaluate.ts [DIR] [--no-cv]
 * [--one-se] [--first-success-repeat] [--by-dataset] (the loop cross-validation again with the one-standard-error
 * rule, with successes repeated once or twice among the candidates, or with one fold per dataset)
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOOP_FAMILY } from '@wayfinder/contracts';
import { DRIFT_CATEGORY, LOOP_CATEGORY, scoreFamily, type FamilyScore } from '@wayfinder/evaluation';
import { driftCandidates, loopCandidates } from './candidates';
import { crossValidate, deviationsUnder, stepsOfTraces, type CrossValidation, type Family } from './cross-validate';
import { readTrailTraces } from './trail-traces';

const args = process.argv.slice(2);
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? join(__dirname, '../../../../../shared/data/trail-dev'));
const pct = (x: number) => x.toFixed(3);
const num = (x: number | null) => (x === null ? '–' : Number.isInteger(x) ? String(x) : x.toFixed(1));
/** Lead time (libs/domain/evaluation/src/lead-time.ts): calls from a caught loop's onset to its first deviation. */
const lead = (s: FamilyScore) => `lead median ${num(s.leadTime.median)} / mean ${num(s.leadTime.mean)} / max ${num(s.leadTime.max)} ${s.leadTime.unit} (${s.leadTime.measured} caught)`;
const figures = (s: FamilyScore) =>
  `recall ${pct(s.recall)} [${pct(s.recallInterval.low)}, ${pct(s.recallInterval.high)}] (${s.flaggedPositives}/${s.positives})  ` +
  `FPR ${pct(s.falsePositiveRate)} [${pct(s.falsePositiveRateInterval.low)}, ${pct(s.falsePositiveRateInterval.high)}] (${s.flaggedNegatives}/${s.negatives})  ` +
  `localized ${pct(s.localized)} (${s.localizedPositives}/${s.positives})  ${lead(s)}`;

if (!existsSync(join(dir, 'labels.json'))) {
  process.stdout.write(`SKIPPED: no trail data at ${dir} (evaluation data lives outside the repository)\n`);
} else {
  const traces = readTrailTraces(dir);
  const labels = traces.map((t) => t.label);
  const stepsOf = stepsOfTraces(traces);
  const run = deviationsUnder(traces, {});
  const score = scoreFamily(labels, (id) => run.get(id), { detectors: LOOP_FAMILY, category: LOOP_CATEGORY, stepsOf });
  process.stdout.write(`${dir}: ${traces.length} traces, balanced profile, all traces (95% Wilson intervals)\n  loop  ${figures(score)}\n`);
  process.stdout.write(`  flagged by detector: ${JSON.stringify(score.byDetector)}\n`);
  const withDrift = deviationsUnder(traces, {}, true);
  const drift = scoreFamily(labels, (id) => withDrift.get(id), { detectors: ['drift'], category: DRIFT_CATEGORY, stepsOf });
  process.stdout.write(`  drift ${figures(drift)}\n`);
  if (!args.includes('--no-cv')) {
    const loops = loopCandidates();
    report(`5-fold cross-validation of the loop thresholds over ${loops.length} candidates (chosen on the other folds: max recall at FPR ≤ 0.05; ties: lower FPR, better localization, fewer alarms)`, crossValidate(traces, loops, { k: 5, maxFalsePositiveRate: 0.05 }));
    if (args.includes('--one-se')) {
      report(
        `\nThe same, choosing by the one-standard-error rule (within 1 SE of the best training recall, the fewest alarms)`,
        crossValidate(traces, loops, { k: 5, maxFalsePositiveRate: 0.05, oneStandardError: true }),
      );
    }
    if (args.includes('--by-dataset')) {
      // Unseen kinds of agent: choose on one dataset's traces (GAIA tool-calling, SWE code agents), score on the other.
      const datasets = [...new Set(labels.map((l) => l.dataset))].sort();
      const folds = datasets.map((d) => labels.flatMap((l, i) => (l.dataset === d ? [i] : [])));
      report(`\nThe same with one fold per dataset (${datasets.join(', ')}): chosen on the other dataset`, crossValidate(traces, loops, { maxFalsePositiveRate: 0.05, folds }));
    }
    if (args.includes('--first-success-repeat')) {
      const wider = loopCandidates({ firstSuccessRepeat: true });
      report(`\nThe same over ${wider.length} candidates, with successes repeated once or twice a deviation (ruled out by DESIGN §5.3 and the legit-work specs)`, crossValidate(traces, wider, { k: 5, maxFalsePositiveRate: 0.05 }));
    }
    const DRIFT: Family = { detectors: ['drift'], category: DRIFT_CATEGORY, drift: true };
    const drifts = driftCandidates();
    report(`\n5-fold cross-validation of the drift thresholds over ${drifts.length} candidates (chosen on the other folds: max recall at FPR ≤ 0.10)`, crossValidate(traces, drifts, { k: 5, maxFalsePositiveRate: 0.1, family: DRIFT }));
  }
}

function report(title: string, cv: CrossValidation): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write('| fold | chosen on the other folds | train recall / FPR | held-out recall | held-out FPR | held-out localized | held-out lead median / mean (calls) |\n| --- | --- | --- | --- | --- | --- | --- |\n');
  for (const f of cv.folds) {
    const h = f.heldOut;
    process.stdout.write(
      `| ${f.fold} | ${f.chosen} | ${pct(f.train.recall)} / ${pct(f.train.falsePositiveRate)} | ${pct(h.recall)} (${h.flaggedPositives}/${h.positives}) | ${pct(h.falsePositiveRate)} (${h.flaggedNegatives}/${h.negatives}) | ${pct(h.localized)} (${h.localizedPositives}/${h.positives}) | ${num(h.leadTime.median)} / ${num(h.leadTime.mean)} |\n`,
    );
  }
  process.stdout.write(
    `held-out mean ± sd: recall ${pct(cv.mean.recall)} ± ${pct(cv.spread.recall)}, FPR ${pct(cv.mean.falsePositiveRate)} ± ${pct(cv.spread.falsePositiveRate)}, localized ${pct(cv.mean.localized)} ± ${pct(cv.spread.localized)}, lead median ${num(cv.mean.leadMedian)} ± ${num(cv.spread.leadMedian)} calls\n`,
  );
  process.stdout.write(`kept (chosen by most folds): ${cv.kept}\n`);
}
