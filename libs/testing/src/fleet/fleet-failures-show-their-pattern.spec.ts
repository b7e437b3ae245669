/**
 * Every injected failure produces the pattern it claims: run through the in-process Navigator with no
 * corrections (so the failure goes on), the claimed detector fires for every injected agent, under
 * every tenant's policy, and nothing fires before the failure started. Drift has no detector in the
 * pipeline yet: a drifting agent is claimed by stagnation, and its work is off-topic (checked with the
 * embedder the drift thresholds are calibrated for).
 */
import type { Deviation } from '@wayfinder/contracts';
import { argsText } from '@wayfinder/cognitive-map';
import { cosine, HashingEmbedder } from '@wayfinder/embeddings';
import { FAILURE_KINDS } from './fleet.types';
import { navigateFleet } from './navigate-fleet';
import { SimulatedFleet } from './simulated-fleet';

describe('injected failures, uncorrected', () => {
  // 48 agents over 3 tenants, 3 failures of each of the 8 kinds: every kind lands in more than one tenant.
  const fleet = new SimulatedFleet({ seed: 5, agents: 48, failures: 24 });
  const run = navigateFleet(fleet, { rounds: 200, corrections: false });
  const byAgent = (tenantId: string, agentId: string): Deviation[] => run.deviations.filter((d) => d.tenantId === tenantId && d.agentId === agentId);

  it('injects every kind', () => {
    expect(new Set(fleet.groundTruth().map((f) => f.kind))).toEqual(new Set(FAILURE_KINDS));
  });

  it.each(FAILURE_KINDS.map((k) => [k]))('%s: the claimed detector fires for every agent that has it, from the loop start on', (kind) => {
    const injected = fleet.groundTruth().filter((f) => f.kind === kind);
    expect(injected.length).toBeGreaterThan(0);
    for (const f of injected) {
      expect(f.startSeq).not.toBeNull();
      const devs = byAgent(f.tenantId, f.agentId);
      const claimed = devs.filter((d) => f.claimedDetectors.includes(d.detector));
      expect({ agent: f.agentId, tenant: f.tenantId, fired: claimed.length > 0 }).toEqual({ agent: f.agentId, tenant: f.tenantId, fired: true });
      expect(devs.every((d) => d.atSeq >= f.startSeq!)).toBe(true);
      // Loops start with the failure; stagnation counts from the agent's last progress, which came before it.
      const record = fleet.agentRecords().find((a) => a.tenantId === f.tenantId && a.agentId === f.agentId)!;
      const lastProgress = Math.max(0, ...record.milestonesDone.filter((m) => m.seq < f.startSeq!).map((m) => m.seq));
      const from = claimed[0].detector === 'stagnation' ? lastProgress : f.startSeq!;
      expect(claimed[0].loopStartSeq).toBeGreaterThanOrEqual(from);
    }
  });

  it('flags no healthy agent', () => {
    const healthy = fleet.agentRecords().filter((a) => !a.failure);
    expect(healthy.length).toBe(24);
    expect(run.deviations.filter((d) => !fleet.isInjected(d.tenantId, d.agentId)).map((d) => `${d.agentId} ${d.detector}`)).toEqual([]);
  });

  it('drifting agents work off-topic: their calls are far from the goal, healthy ones close to it', () => {
    const embedder = new HashingEmbedder();
    const fresh = new SimulatedFleet({ seed: 5, agents: 48, failures: 24 });
    const truth = fresh.groundTruth();
    const goals = new Map(fresh.tasks().map((t) => [`${t.tenantId}/${t.taskId}`, embedder.embedSync(t.goal)]));
    const similarity: Record<'drift' | 'healthy', number[]> = { drift: [], healthy: [] };
    for (let r = 0; r < 80; r++) {
      for (const step of fresh.nextSteps()) {
        if (step.kind !== 'action') continue;
        const f = truth.find((d) => d.agentId === step.agentId && d.tenantId === step.tenantId);
        const group = !f ? 'healthy' : f.kind === 'drift' && step.seq >= f.startSeq! ? 'drift' : undefined;
        if (group) similarity[group].push(cosine(embedder.embedSync(`${step.action.tool} ${argsText(step.action.args)}`), goals.get(`${step.tenantId}/${step.taskId}`)!));
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(similarity.drift.length).toBeGreaterThan(20);
    // Below the balanced profile's milestone threshold for drift, and far below what healthy work scores.
    expect(mean(similarity.drift)).toBeLessThan(0.15);
    expect(mean(similarity.healthy)).toBeGreaterThan(3 * mean(similarity.drift));
  });
});
