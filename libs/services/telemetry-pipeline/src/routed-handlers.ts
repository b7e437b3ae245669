/**
 * Test wiring: the four service handlers connected by a synchronous in-memory router standing in for the
 * bus, so a replayed scenario runs deterministically through the real handler code (and the telemetry
 * calls in it). The correction engine reads each step with the deviations it triggered (wayfinder.detected.v1).
 */
import type { Bus } from '@wayfinder/bus';
import type { CognitiveMap, Correction, DetectedStep, Deviation, Escalation, LocalizedStep, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { CorrectionHandler } from '@wayfinder/service-correction-engine';
import { InMemoryMapStore, PolicyBook } from '@wayfinder/service-core';
import { LocalizedHandler } from '@wayfinder/service-detector-worker';
import { StepHandler } from '@wayfinder/service-state-localizer';

export interface RoutedHandlers {
  readonly steps: StepHandler;
  readonly detector: LocalizedHandler;
  readonly corrections: CorrectionHandler;
  readonly published: { localized: LocalizedStep[]; deviations: Deviation[]; corrections: Correction[]; escalations: Escalation[] };
  task(map: CognitiveMap): Promise<void>;
  step(step: StepEvent): Promise<void>;
}

export function routedHandlers(): RoutedHandlers {
  const published: RoutedHandlers['published'] = { localized: [], deviations: [], corrections: [], escalations: [] };
  const mapStore = new InMemoryMapStore();
  const policies = new PolicyBook('balanced');
  const embedder = new HashingEmbedder();
  // eslint-disable-next-line prefer-const
  let handlers: { steps: StepHandler; detector: LocalizedHandler; corrections: CorrectionHandler };
  const bus = {
    async publish(topic: string, payloads: readonly unknown[]) {
      for (const payload of payloads) {
        if (topic === 'wayfinder.localized.v1') {
          published.localized.push(payload as LocalizedStep);
          await handlers.detector.onLocalized([payload as LocalizedStep]);
        } else if (topic === 'wayfinder.detected.v1') {
          await handlers.corrections.onDetected([payload as DetectedStep]);
        } else if (topic === 'wayfinder.deviations.v1') {
          published.deviations.push(payload as Deviation);
          await handlers.corrections.onDeviations([payload as Deviation]);
        } else if (topic === 'wayfinder.corrections.v1') {
          published.corrections.push(payload as Correction);
        } else if (topic === 'wayfinder.escalations.v1') {
          published.escalations.push(payload as Escalation);
        }
      }
    },
  } as unknown as Bus;
  handlers = {
    steps: new StepHandler(bus, mapStore, embedder),
    detector: new LocalizedHandler(bus, policies, mapStore, embedder),
    corrections: new CorrectionHandler(bus, policies, mapStore),
  };
  return {
    ...handlers,
    published,
    async task(map) {
      await handlers.steps.onMap(map);
      handlers.detector.onMap(map);
      handlers.corrections.onMap(map);
    },
    step: (step) => handlers.steps.onSteps([step]),
  };
}

/** Builds the steps of one agent with increasing seq and timestamps `ageMs` in the past. */
export function stepWriter(tenantId: string, agentId: string, taskId: string, ageMs: number) {
  let seq = 0;
  const base = () => ({
    schema: 'wayfinder.step.v1' as const,
    eventId: `${tenantId}-${agentId}-${seq}`,
    tenantId,
    agentId,
    taskId,
    runId: 'r1',
    seq: seq++,
    ts: new Date(Date.now() - ageMs).toISOString(),
  });
  return {
    failingRead(i: number): StepEvent[] {
      return [
        { ...base(), kind: 'action', action: { tool: 'read_file', args: { path: '/data/sales.csv' }, callId: `c${i}` } },
        { ...base(), kind: 'observation', observation: { tool: 'read_file', callId: `c${i}`, ok: false, error: 'EACCES: permission denied' } },
      ];
    },
    milestoneDone(id: string): StepEvent {
      return { ...base(), kind: 'milestone', milestone: { id, status: 'done' } };
    },
    action(tool: string, args: Record<string, string>): StepEvent {
      return { ...base(), kind: 'action', action: { tool, args } };
    },
  };
}

export function taskSpec(tenantId: string, taskId: string): TaskSpec {
  return {
    schema: 'wayfinder.task.v1',
    eventId: `task-${tenantId}-${taskId}`,
    tenantId,
    ts: new Date().toISOString(),
    taskId,
    goal: 'Read the sales data -> compute the totals -> write the report',
    expectedStepMs: 1_000,
  };
}
