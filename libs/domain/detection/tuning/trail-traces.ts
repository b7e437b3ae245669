/** Reads a TRAIL-style folder (labels.json and one StepEvent JSONL per trace) for the tuning scripts. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StepEvent } from '@wayfinder/contracts';
import { parseTrailLabels } from '@wayfinder/evaluation';
import type { LabelledTrace } from './cross-validate';

export function readTrailTraces(dir: string): LabelledTrace[] {
  const parsed = parseTrailLabels(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')));
  if (!parsed.ok) throw new Error(`${dir}/labels.json: ${parsed.error}`);
  return parsed.value.map((label) => ({
    label,
    events: readFileSync(join(dir, label.file), 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as StepEvent),
  }));
}
