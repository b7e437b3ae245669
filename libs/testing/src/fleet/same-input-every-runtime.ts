/**
 * The step files issue #28's acceptance runs through every way of running navigation (replay, the SDK
 * guard, the embedded runtime, the Kafka runtime one-pass and separate): every conformance case (each a
 * tenant of its own, no task posted), a generated fleet of loops, drifts and healthy agents and the demo
 * fleet (their steps as their agents make them, corrections not applied, so every runtime gets exactly the same input).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { StepEvent as StepEventSchema, type StepEvent, type TaskSpec } from '@wayfinder/contracts';
import { SimulatedFleet } from './simulated-fleet';

const CONFORMANCE_CASES = path.resolve(__dirname, '../../../domain/detection/conformance/cases');

export interface StepFile {
  readonly tasks: TaskSpec[];
  readonly steps: StepEvent[];
}

/** Every conformance case's steps, each case a tenant of its own (the default policy: the point is the same decisions everywhere). */
export function conformanceSteps(): StepFile {
  const steps = readdirSync(CONFORMANCE_CASES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      const events = (JSON.parse(readFileSync(path.join(CONFORMANCE_CASES, f), 'utf8')) as { events: unknown[] }).events;
      return events.flatMap((e) => {
        const step = StepEventSchema.safeParse(e);
        return step.success ? [{ ...step.data, tenantId: `case-${f.replace(/\.json$/, '')}` }] : [];
      });
    });
  return { tasks: [], steps };
}

/** A generated fleet of loops, drifts and healthy agents: its steps as its agents make them, corrections not applied. */
export function generatedFleetSteps(options: { seed?: number; agents?: number; failures?: number; rounds?: number } = {}): StepFile {
  const fleet = new SimulatedFleet({ seed: options.seed ?? 28, agents: options.agents ?? 24, failures: options.failures ?? 12 });
  const steps: StepEvent[] = [];
  for (let round = 0; round < (options.rounds ?? 60) && !fleet.settled; round++) steps.push(...fleet.nextSteps());
  return { tasks: fleet.tasks(), steps };
}

/**
 * The demo fleet's steps (`wayfinder demo`: seed 1, a failure rate of 0.3, four agents per task, staggered
 * starts), 60 agents, corrections not applied (the demo's agents answer them; here every runtime gets the same input).
 */
export function demoFleetSteps(options: { agents?: number; rounds?: number } = {}): StepFile {
  const rounds = options.rounds ?? 60;
  const fleet = new SimulatedFleet({ seed: 1, agents: options.agents ?? 60, failureRate: 0.3, agentsPerTask: 4, stagger: Math.floor(rounds / 10) });
  const steps: StepEvent[] = [];
  for (let round = 0; round < rounds && !fleet.settled; round++) steps.push(...fleet.nextSteps());
  return { tasks: fleet.tasks(), steps };
}
