/**
 * Tuning aid for the `balanced` profile on shared/data/trail-dev (not the official `wayfinder eval trail`):
 * trace-level recall / false-positive rate / localization of loop-family deviations against
 * `resource abuse` labels. Usage:
 *   node bin/run-ts.js libs/domain/detection/tuning/trail-score.ts [DIR] [--overlay JSON] [--verbose]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOOP_FAMILY, type Deviation, type PolicyOverlay, type StepEvent } from '@wayfinder/contracts';
import { callIndex, leadOf, type LeadTime, summarizeLeads } from '@wayfinder/evaluation';
import { DetectionEngine, resolvePolicy } from '../src';

export interface TrailScore {
  positives: number;
  negatives: number;
  recall: number;
  falsePositiveRate: number;
  localized: number;
  byDetector: Record<string, number>;
  /** Calls from a caught loop's onset to its first deviation (libs/domain/evaluation/src/lead-time.ts). */
  leadTime: LeadTime;
}

interface LabelRow {
  file: string;
  errors: { category: string; seqs: number[] }[];
}

export function scoreTrail(dir: string, overlay: PolicyOverlay = {}, verbose = false): TrailScore {
  const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as LabelRow[];
  const policy = resolvePolicy(overlay);
  let positives = 0;
  let negatives = 0;
  let flaggedPositives = 0;
  let flaggedNegatives = 0;
  let localized = 0;
  const byDetector: Record<string, number> = {};
  const leads: number[] = [];
  for (const row of labels) {
    const events = readFileSync(join(dir, row.file), 'utf8')
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => JSON.parse(l) as StepEvent);
    const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
    const deviations: Deviation[] = [];
    for (const e of events) deviations.push(...engine.onStep(e));
    const loops = deviations.filter((d) => LOOP_FAMILY.includes(d.detector));
    const seqs = row.errors.filter((e) => e.category === 'resource abuse').flatMap((e) => e.seqs);
    const positive = seqs.length > 0;
    const flagged = loops.length > 0;
    if (positive) {
      positives++;
      if (flagged) {
        flaggedPositives++;
        const first = loops.reduce((a, b) => (b.atSeq < a.atSeq ? b : a));
        const lead = leadOf(first, callIndex(events));
        if (lead !== null) leads.push(lead);
      }
      if (loops.some((d) => seqs.some((s) => d.atSeq >= s - 8 && d.atSeq <= s + 2))) localized++;
    } else {
      negatives++;
      if (flagged) flaggedNegatives++;
    }
    for (const d of loops) byDetector[d.detector] = (byDetector[d.detector] ?? 0) + 1;
    if (verbose && (positive || flagged)) {
      const summary = loops.map((d) => `${String(d.evidence.tool ?? "").slice(0,12)}:${d.detector}/${d.level}@${d.atSeq}(${d.count}${d.evidence.similarity !== undefined ? ` s=${d.evidence.similarity} r=${d.evidence.resultSimilarity}` : ''})`).join(' ');
      process.stdout.write(`${positive ? 'POS' : 'NEG'} ${row.file.slice(0, 28)} labels=[${seqs.join(',')}] ${summary}\n`);
    }
  }
  return {
    positives,
    negatives,
    recall: flaggedPositives / Math.max(1, positives),
    falsePositiveRate: flaggedNegatives / Math.max(1, negatives),
    localized: localized / Math.max(1, positives),
    byDetector,
    leadTime: summarizeLeads(leads, 'calls'),
  };
}

if (/trail-score\.ts$/.test(process.argv[1] ?? "")) {
  const args = process.argv.slice(2);
  const dir = resolve(args.find((a) => !a.startsWith('--') && !a.startsWith('{')) ?? join(__dirname, '../../../../../shared/data/trail-dev'));
  const overlayIndex = args.indexOf('--overlay');
  const overlay = overlayIndex >= 0 ? (JSON.parse(args[overlayIndex + 1]) as PolicyOverlay) : {};
  if (!existsSync(join(dir, 'labels.json'))) {
    process.stderr.write(`trail-score: no trail data at ${dir} (labels.json missing; evaluation data lives outside the repository)\n`);
    process.exit(2);
  }
  const score = scoreTrail(dir, overlay, args.includes('--verbose'));
  process.stdout.write(`${JSON.stringify(score)}\n`);
}
