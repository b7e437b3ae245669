/**
 * Runs one conformance case (shared/conformance, README "Case format") through a DetectionEngine and
 * lists its mismatches. Pure: the spec reads the files, this checks them.
 */
import type { CognitiveMap, Deviation, PolicyOverlay, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine } from '../detection.engine';
import { goalCheckDetectors } from '../goal-checks';
import { resolvePolicy } from '../policy/resolve';

export interface ConformanceCase {
  name: string;
  about?: string;
  policy: PolicyOverlay;
  events: StepEvent[];
  /**
   * Project cases only (PROJECT-RULES.md P9): the task whose map the run is checked against (its goal and
   * milestones with their validators). With it the goal checks run too, as in the navigator.
   */
  task?: Pick<TaskSpec, 'goal' | 'milestones'>;
  expect?: { atSeq: number; detector: string; level: string; count: number }[];
  expectSome?: { detector: string; level?: string; fromSeq: number; toSeq: number }[];
  forbid?: { detector?: string; level?: string; fromSeq?: number; toSeq?: number }[];
}

export function runConformanceCase(testCase: ConformanceCase): { deviations: Deviation[]; failures: string[] } {
  const policy = resolvePolicy(testCase.policy);
  const map = testCase.task ? mapOf(testCase.task) : undefined;
  const embedder = new HashingEmbedder();
  const engine = new DetectionEngine({ embedder, policyFor: () => ({ policy, map }), extraDetectors: testCase.task ? goalCheckDetectors(embedder) : [] });
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

function mapOf(task: Pick<TaskSpec, 'goal' | 'milestones'>): CognitiveMap {
  const parsed = parseTask({ schema: 'wayfinder.task.v1', eventId: 'task-e1', tenantId: 't1', ts: '2026-01-01T00:00:00.000Z', taskId: 'task1', ...task });
  if (!parsed.ok) throw new Error(`case task: ${parsed.error.message}`);
  return parsed.value;
}
