/**
 * One state document per agent (issue #28): a fleet navigated with every agent's document exported and
 * restored into a fresh Navigator between rounds (a restart, a partition that moved) gives exactly the
 * decisions of an uninterrupted run — deviations and corrections, event ids included.
 */
import type { Correction, Deviation, PolicySettings } from '@wayfinder/contracts';
import { resolvePolicy } from '@wayfinder/detection';
import { createNavigator, type Navigator } from '@wayfinder/navigation';
import { SimulatedFleet } from './simulated-fleet';

const ROUNDS = 60;

function run(restartEvery: number | undefined): { deviations: Deviation[]; corrections: Correction[]; documents: number } {
  const fleet = new SimulatedFleet({ seed: 28, agents: 40, failures: 24 });
  const policies = new Map<string, PolicySettings>(fleet.policies().map((p) => [p.tenantId, resolvePolicy(p.policy)]));
  const build = (): Navigator => createNavigator({ policy: (s) => policies.get(s.tenantId) ?? resolvePolicy(), tasks: fleet.tasks() });
  let navigator = build();
  const agents = new Map<string, { tenantId: string; agentId: string }>();
  const out = { deviations: [] as Deviation[], corrections: [] as Correction[], documents: 0 };
  for (let round = 0; round < ROUNDS && !fleet.settled; round++) {
    const arrived: Correction[] = [];
    for (const step of fleet.nextSteps()) {
      agents.set(`${step.tenantId}/${step.agentId}`, { tenantId: step.tenantId, agentId: step.agentId });
      const result = navigator.onStep(step);
      out.deviations.push(...result.deviations);
      arrived.push(...result.corrections);
    }
    for (const c of arrived) {
      out.corrections.push(c);
      fleet.applyCorrection(c);
    }
    if (restartEvery && round % restartEvery === restartEvery - 1) {
      const documents = [...agents.values()].map((a) => ({ ...a, state: navigator.exportAgentState(a.tenantId, a.agentId) }));
      navigator = build();
      for (const d of documents) {
        if (!d.state) continue;
        // Through a copy, as a store hands it back.
        navigator.importAgentState(d.tenantId, d.agentId, Uint8Array.from(d.state));
        out.documents++;
      }
    }
  }
  return out;
}

describe('a Navigator restored from its agents\' state documents', () => {
  it('decides exactly as an uninterrupted one, ids included', () => {
    const reference = run(undefined);
    const restored = run(7);
    expect(reference.deviations.length).toBeGreaterThan(10);
    expect(reference.corrections.length).toBeGreaterThan(5);
    expect(restored.documents).toBeGreaterThan(40);
    expect(restored.deviations.map((d) => d.eventId)).toEqual(reference.deviations.map((d) => d.eventId));
    expect(restored.corrections).toEqual(reference.corrections);
  });
});
