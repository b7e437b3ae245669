/**
 * Builders for the correction engine's scenario specs: a complete policy, a small cognitive map, steps,
 * positions and deviations. Test-only; not exported from the library's index.
 */
import {
  DEVIATION_SCHEMA,
  MAP_SCHEMA,
  STEP_SCHEMA,
  type CognitiveMap,
  type Deviation,
  type DetectorName,
  type JsonValue,
  type PolicySettings,
  type Position,
  type StepEvent,
} from '@wayfinder/contracts';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { CorrectionEngine, type CorrectionContext } from './correction-engine';
import type { SelfHealOutcome } from './self-heal';

export const TENANT = 'acme';
export const AGENT = 'agent-7';
export const TASK = 'task-1';
export const RUN = 'run-1';
export const FIXED_NOW = Date.parse('2026-01-01T00:00:00.000Z');

/** The balanced profile with no cool-down, so each scenario sees the ladder's own rules only. */
export function testPolicy(correction: Partial<PolicySettings['correction']> = {}): PolicySettings {
  return resolvePolicy({ profile: 'balanced', correction: { cooldownSteps: 0, ...correction } });
}

export function testMap(): CognitiveMap {
  const milestone = (id: string, description: string, dependsOn: string[]) => ({
    id,
    description,
    dependsOn,
    validator: { type: 'marker' as const },
  });
  return {
    schema: MAP_SCHEMA,
    eventId: 'map-1',
    tenantId: TENANT,
    ts: '2026-01-01T00:00:00.000Z',
    taskId: TASK,
    version: 1,
    goal: 'Write a market report on 5 competitors of Acme',
    targetState: 'a 3000-word report covering 5 competitors',
    milestones: [
      milestone('m1', 'Find the list of competitors', []),
      milestone('m2', 'Collect pricing for 5 competitors', ['m1']),
      milestone('m3', 'Compare features', ['m2']),
      milestone('m4', 'Write the report', ['m3']),
    ],
    anchors: [],
    constraints: [{ id: 'c1', text: 'Only use public sources', hard: true, source: 'task' }],
    maxSteps: 100,
  };
}

export function context(overrides: Partial<CorrectionContext> = {}): CorrectionContext {
  return {
    policy: testPolicy(),
    map: testMap(),
    lastCheckpoint: { id: 'cp-m1', milestoneId: 'm1', seq: 4 },
    ...overrides,
  };
}

export function actionStep(seq: number, tool = 'web_search', args: Record<string, JsonValue> = { q: 'acme pricing' }): StepEvent {
  return {
    schema: STEP_SCHEMA,
    eventId: `step-${seq}`,
    tenantId: TENANT,
    ts: '2026-01-01T00:00:00.000Z',
    agentId: AGENT,
    taskId: TASK,
    runId: RUN,
    seq,
    kind: 'action',
    action: { tool, args },
  };
}

export function position(milestoneId: string, completed: string[], progress: number): Position {
  return { milestoneId, completed, progress, confidence: 1, method: 'signal' };
}

let deviationCounter = 0;

export function deviation(
  detector: DetectorName,
  atSeq: number,
  options: { level?: 'warning' | 'critical'; count?: number; evidence?: Record<string, JsonValue>; loopStartSeq?: number; id?: string } = {},
): Deviation {
  deviationCounter += 1;
  return {
    schema: DEVIATION_SCHEMA,
    eventId: options.id ?? `dev-${detector}-${atSeq}-${deviationCounter}`,
    tenantId: TENANT,
    ts: '2026-01-01T00:00:00.000Z',
    agentId: AGENT,
    taskId: TASK,
    runId: RUN,
    detector,
    level: options.level ?? 'warning',
    count: options.count ?? 11,
    atSeq,
    loopStartSeq: options.loopStartSeq ?? Math.max(0, atSeq - 10),
    evidence: options.evidence ?? { tool: 'web_search', args: { q: 'acme pricing' }, argsHash: 'h1' },
    message: `${detector} at ${atSeq}`,
  };
}

/** Feeds steps `from..to` (inclusive) at a fixed position; returns the self-heal outcomes they produced. */
export function walk(engine: CorrectionEngine, ctx: CorrectionContext, from: number, to: number, at: Position): SelfHealOutcome[] {
  const outcomes: SelfHealOutcome[] = [];
  for (let seq = from; seq <= to; seq++) outcomes.push(...engine.onStep(actionStep(seq), at, ctx));
  return outcomes;
}

/**
 * Steps through the real detection engine (default policy) and the ladder, each step before the deviations it
 * causes (as the Navigator runs them): the deviations found and the corrections as `action/severity`.
 */
export function detectAndCorrect(steps: readonly StepEvent[]): { found: Deviation[]; corrections: string[] } {
  const policy = resolvePolicy({});
  const detection = new DetectionEngine({ policyFor: () => ({ policy }) });
  const correction = new CorrectionEngine({ now: () => FIXED_NOW });
  const ctx = context();
  const found: Deviation[] = [];
  const corrections: string[] = [];
  for (const step of steps) {
    correction.onStep(step, undefined, ctx);
    for (const d of detection.onStep(step)) {
      found.push(d);
      for (const c of correction.onDeviation(d, ctx).corrections) corrections.push(`${c.action}/${c.severity}`);
    }
  }
  return { found, corrections };
}
