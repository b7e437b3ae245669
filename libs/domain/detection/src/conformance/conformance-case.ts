/**
 * Runs one conformance case (shared/conformance, README "Case format") through a DetectionEngine and
 * lists its mismatches. Pure: the spec reads the files, this checks them.
 */
import type { Deviation, PolicyOverlay, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from '../detection.engine';
import { resolvePolicy } from '../policy/resolve';

export interface ConformanceCase {
  name: string;
  about?: string;
  policy: PolicyOverlay;
  events: StepEvent[];
  expect?: { atSeq: number; detector: string; level: string; count: number }[];
  expectSome?: { detector: string; level?: string; fromSeq: number; toSeq: number }[];
  forbid?: { detector?: string; level?: string; fromSeq?: number; toSeq?: number }[];
}

export function runConformanceCase(testCase: ConformanceCase): { deviations: Deviation[]; failures: string[] } {
  const policy = resolvePolicy(testCase.policy);
  const engine = new DetectionEngine({ policyFor: () => ({ policy }) });
  const deviations: Deviation[] = [];
  for (const event of testCase.events) deviations.push(...engine.onStep(event));
  const failures: string[] = [];
  for (const e of testCase.expect ?? []) {
    const hit = deviations.some((d) => d.atSeq === e.atSeq && d.detector === e.detector && d.level === e.level && d.count === e.count);
    if (!hit) failures.push(`expected ${e.detector}/${e.level} count ${e.count} at seq ${e.atSeq}`);
  }
  for (const e of testCase.expectSome ?? []) {
    const hit = deviations.some(
      (d) => d.detector === e.detector && (e.level === undefined || d.level === e.level) && d.atSeq >= e.fromSeq && d.atSeq <= e.toSeq,
    );
    if (!hit) failures.push(`expected some ${e.detector}${e.level ? `/${e.level}` : ''} in seq ${e.fromSeq}..${e.toSeq}`);
  }
  for (const f of testCase.forbid ?? []) {
    const hit = deviations.find(
      (d) =>
        (f.detector === undefined || d.detector === f.detector) &&
        (f.level === undefined || d.level === f.level) &&
        (f.fromSeq === undefined || d.atSeq >= f.fromSeq) &&
        (f.toSeq === undefined || d.atSeq <= f.toSeq),
    );
    if (hit) failures.push(`forbidden ${JSON.stringify(f)} matched ${hit.detector}/${hit.level} count ${hit.count} at seq ${hit.atSeq}`);
  }
  return { deviations, failures };
}
