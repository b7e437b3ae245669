/**
 * The numbers of a demo run, from the fleet's ground truth and what the pipeline published: how many
 * injected failures were detected, corrected, healed or escalated, per tenant and per failure kind, and
 * whether any healthy agent was flagged. Only seeded quantities go in, so the same seed gives the same
 * summary (wall-clock figures are reported beside it, never in it).
 */
import type { Deviation, PolicySettings } from '@wayfinder/contracts';
import { resolvePolicy } from '@wayfinder/detection';
import { AGENT_STATES, FAILURE_KINDS, type AgentRecord, type AgentState, type FailureKind, type SimulatedFleet } from '@wayfinder/testing';
import type { FleetRun } from './fleet-pipeline-run';

export interface Outcomes {
  injected: number;
  /** Injected agents that reached their failure (a short run may end before some do). */
  started: number;
  detected: number;
  corrected: number;
  /** Recovered after a correction, without a human. */
  healed: number;
  /** Frozen and handed to a human. */
  escalated: number;
}

export interface TenantSummary extends Outcomes {
  tenantId: string;
  label: string;
  agents: number;
  healthyCorrected: number;
  /** The thresholds that differ between tenants (DESIGN §6). */
  thresholds: Record<string, number>;
  /** Mean steps from a failure's first step to its first deviation, over the detected ones. */
  meanStepsToDetect: number | null;
}

export interface DemoSummary extends Outcomes {
  seed: number;
  agents: number;
  tenants: number;
  rounds: number;
  steps: number;
  agentsByState: Record<AgentState, number>;
  healthyFlagged: number;
  healthyCorrected: number;
  deviations: number;
  deviationsByDetector: Record<string, number>;
  corrections: number;
  correctionsByAction: Record<string, number>;
  escalations: number;
  /** The correction engine's self-heal signal: corrections after which the agent progressed in time. */
  selfHeal: { healed: number; failed: number; rate: number | null };
  byKind: Record<FailureKind, Outcomes>;
  byTenant: TenantSummary[];
}

function empty(): Outcomes {
  return { injected: 0, started: 0, detected: 0, corrected: 0, healed: 0, escalated: 0 };
}

function count<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export function thresholdsOf(policy: PolicySettings): Record<string, number> {
  return {
    'loop warning': policy.loop.warning,
    'error repeat warning': policy.loop.errorRepeatWarning,
    'unknown tool': policy.loop.unknownTool,
    'near-duplicate warning': policy.nearDuplicate.warning,
    'near-duplicate args similarity': policy.nearDuplicate.argsSimilarity,
    'monologue warning': policy.monologue.warning,
    'stagnation warning (actions)': policy.stagnation.warningSteps,
    'correction tolerance (steps)': policy.correction.toleranceSteps,
  };
}

export function agentKey(a: { tenantId: string; agentId: string }): string {
  return `${a.tenantId}/${a.agentId}`;
}

export function summarize(seed: number, fleet: SimulatedFleet, run: FleetRun): DemoSummary {
  const records = fleet.agentRecords();
  const devsByAgent = new Map<string, Deviation[]>();
  for (const d of run.deviations) {
    const list = devsByAgent.get(agentKey(d)) ?? [];
    list.push(d);
    devsByAgent.set(agentKey(d), list);
  }
  const correctedAgents = new Set(run.corrections.map(agentKey));
  const total = empty();
  const byKind = Object.fromEntries(FAILURE_KINDS.map((k) => [k, empty()])) as Record<FailureKind, Outcomes>;
  const byTenant = new Map<string, TenantSummary>();
  const detectSteps = new Map<string, number[]>();
  for (const t of fleet.tenants) {
    byTenant.set(t.tenantId, { tenantId: t.tenantId, label: t.label, agents: 0, healthyCorrected: 0, ...empty(), thresholds: thresholdsOf(resolvePolicy(t.policy)), meanStepsToDetect: null });
    detectSteps.set(t.tenantId, []);
  }
  let healthyFlagged = 0;
  let healthyCorrected = 0;
  for (const r of records) {
    const tenant = byTenant.get(r.tenantId)!;
    tenant.agents++;
    const devs = devsByAgent.get(agentKey(r)) ?? [];
    if (!r.failure) {
      if (devs.length > 0) healthyFlagged++;
      if (correctedAgents.has(agentKey(r))) {
        healthyCorrected++;
        tenant.healthyCorrected++;
      }
      continue;
    }
    const o = outcomeOf(r, devs, correctedAgents.has(agentKey(r)));
    for (const target of [total, byKind[r.failure.kind], tenant]) {
      for (const k of Object.keys(o) as Array<keyof Outcomes>) target[k] += o[k];
    }
    if (o.detected && r.failure.startSeq !== null) {
      const first = devs.find((d) => d.atSeq >= r.failure!.startSeq!);
      if (first) detectSteps.get(r.tenantId)!.push(first.atSeq - r.failure.startSeq);
    }
  }
  for (const tenant of byTenant.values()) {
    const steps = detectSteps.get(tenant.tenantId)!;
    tenant.meanStepsToDetect = steps.length > 0 ? Math.round((steps.reduce((a, b) => a + b, 0) / steps.length) * 10) / 10 : null;
  }
  const states = fleet.countByState();
  const { selfHeals, selfHealFailures } = run.selfHeal;
  return {
    seed,
    agents: records.length,
    tenants: fleet.tenants.length,
    rounds: run.rounds,
    steps: run.steps,
    agentsByState: Object.fromEntries(AGENT_STATES.map((s) => [s, states[s]])) as Record<AgentState, number>,
    ...total,
    healthyFlagged,
    healthyCorrected,
    deviations: run.deviations.length,
    deviationsByDetector: count(run.deviations, (d) => d.detector),
    corrections: run.corrections.length,
    correctionsByAction: count(run.corrections, (c) => c.action),
    escalations: run.escalations.length,
    selfHeal: { healed: selfHeals, failed: selfHealFailures, rate: selfHeals + selfHealFailures > 0 ? Math.round((selfHeals / (selfHeals + selfHealFailures)) * 1000) / 1000 : null },
    byKind,
    byTenant: [...byTenant.values()],
  };
}

function outcomeOf(r: AgentRecord, devs: readonly Deviation[], corrected: boolean): Outcomes {
  const started = r.failure!.startSeq !== null;
  return {
    injected: 1,
    started: started ? 1 : 0,
    detected: started && devs.length > 0 ? 1 : 0,
    corrected: corrected ? 1 : 0,
    healed: r.failure!.recoveredAtSeq !== null ? 1 : 0,
    escalated: r.state === 'frozen' ? 1 : 0,
  };
}
