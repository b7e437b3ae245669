/** Step builders and policy for the drift specs. */
import type { CognitiveMap, JsonValue, PolicySettings, StepEvent } from '@wayfinder/contracts';
import { PROFILES } from '../../policy/profiles';

export const policy: PolicySettings = {
  ...PROFILES.balanced,
  // Calibrated for the hashing embedder: unrelated short texts score about 0.0–0.13, related ones 0.3–0.5.
  drift: { enabled: true, milestoneThreshold: 0.2, goalThreshold: 0.15, toleranceSteps: 3 },
};

export function stepper(runId = 'r1', agentId = 'a1') {
  let seq = 0;
  const base = () => ({
    schema: 'wayfinder.step.v1' as const,
    eventId: `${runId}-${seq}`,
    tenantId: 't1',
    ts: '2026-01-01T00:00:00.000Z',
    agentId,
    taskId: 'task-1',
    runId,
    seq: seq++,
  });
  return {
    user: (text: string): StepEvent => ({ ...base(), kind: 'message', message: { role: 'user', text } }),
    say: (text: string): StepEvent => ({ ...base(), kind: 'message', message: { role: 'assistant', text } }),
    act: (tool: string, args: Record<string, JsonValue> = {}): StepEvent => ({ ...base(), kind: 'action', action: { tool, args } }),
    see: (tool: string, content: string): StepEvent => ({ ...base(), kind: 'observation', observation: { tool, ok: true, content } }),
  };
}

export const scooterMap: CognitiveMap = {
  schema: 'wayfinder.map.v1',
  eventId: 'map:task-1:v1',
  tenantId: 't1',
  ts: '2026-01-01T00:00:00.000Z',
  taskId: 'task-1',
  version: 1,
  goal: 'Write a market report comparing electric scooter brands on price, battery range and weight',
  targetState: 'market report written',
  milestones: [
    { id: 'collect', description: 'search electric scooter brands prices battery range and weight', dependsOn: [], validator: { type: 'marker' } },
    { id: 'write', description: 'write the electric scooter market report', dependsOn: ['collect'], validator: { type: 'marker' } },
  ],
  anchors: [],
  constraints: [],
};

/** Searches a run on scooters would make. */
export const onTopicQueries = [
  'electric scooter brands price comparison 2024',
  'Xiaomi electric scooter battery range km',
  'Segway Ninebot electric scooter weight kg price',
  'best electric scooter battery range review',
  'electric scooter price list brands comparison',
  'lightest electric scooter weight battery range',
];

/** Searches that have nothing to do with scooters. */
export const offTopicQueries = [
  'chocolate cake recipe with cocoa powder',
  'football world cup 1998 final lineup',
  'how to knit a wool sweater pattern',
  'medieval castle architecture history',
  'best hiking trails in patagonia',
  'jazz saxophone solo transcription',
];
