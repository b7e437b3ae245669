/**
 * A small fleet through the whole pipeline embedded (startServices on the in-process bus): 60 agents
 * over 3 tenants, 10 injected failures covering every kind. Every injected failure is detected and
 * corrected, agents that yield to a correction recover and finish, those that need a human are frozen
 * and escalated, no healthy agent is flagged or corrected, and the tenants' thresholds visibly differ:
 * the same monologue is caught after 2, 3 and 4 messages under the strict, balanced and lenient policy.
 */
import { SimulatedFleet, type FleetOptions } from '@wayfinder/testing';
import { runFleetThroughPipeline, type FleetRun } from './fleet-pipeline-run';

// Agent i belongs to tenant i mod 3: acme (balanced), globex (strict), initech (lenient).
const INJECT: FleetOptions['inject'] = [
  { agent: 0, kind: 'monologue', respondsTo: 'rollback' },
  { agent: 1, kind: 'monologue', respondsTo: 'rollback' },
  { agent: 2, kind: 'monologue', respondsTo: 'rollback' },
  { agent: 3, kind: 'same_call', respondsTo: 'human' },
  { agent: 4, kind: 'unknown_tool', respondsTo: 'hint' },
  { agent: 5, kind: 'dead_poll', respondsTo: 'replan' },
  { agent: 6, kind: 'ping_pong', respondsTo: 'rollback' },
  { agent: 7, kind: 'rephrased_search', respondsTo: 'hint' },
  { agent: 8, kind: 'stagnation', respondsTo: 'hint' },
  { agent: 9, kind: 'drift', respondsTo: 'hint' },
];

describe('a simulated fleet through the embedded pipeline', () => {
  const fleet = new SimulatedFleet({ seed: 17, agents: 60, inject: INJECT, agentsPerTask: 2 });
  let run: FleetRun;

  beforeAll(async () => {
    run = await runFleetThroughPipeline(fleet, { rounds: 400 });
  });

  it('runs until every agent has finished or been frozen', () => {
    expect(fleet.settled).toBe(true);
    expect(run.rounds).toBeLessThan(400);
  });

  it('detects and corrects every injected failure', () => {
    const truth = fleet.groundTruth();
    expect(truth).toHaveLength(10);
    for (const f of truth) {
      const devs = run.deviations.filter((d) => d.tenantId === f.tenantId && d.agentId === f.agentId);
      const cors = run.corrections.filter((c) => c.tenantId === f.tenantId && c.agentId === f.agentId);
      expect({ agent: f.agentId, kind: f.kind, started: f.startSeq !== null, detected: devs.length > 0, corrected: cors.length > 0 }).toEqual({
        agent: f.agentId, kind: f.kind, started: true, detected: true, corrected: true,
      });
      expect(devs[0].atSeq).toBeGreaterThanOrEqual(f.startSeq!);
    }
  });

  it('heals the agents a correction can reach and escalates the one that needs a human', () => {
    for (const a of fleet.agentRecords().filter((r) => r.failure)) {
      if (a.failure!.respondsTo === 'human') {
        expect(a.state).toBe('frozen');
        expect(run.escalations.filter((e) => e.agentId === a.agentId && e.tenantId === a.tenantId)).toHaveLength(1);
      } else {
        expect({ agent: a.agentId, state: a.state }).toEqual({ agent: a.agentId, state: 'done' });
        expect(a.corrections.some((c) => c.effect === 'recovered')).toBe(true);
      }
    }
    expect(run.selfHeal.selfHeals).toBeGreaterThanOrEqual(9);
    expect(run.escalations).toHaveLength(1);
  });

  it('flags and corrects no healthy agent, and every healthy agent finishes its task', () => {
    const healthy = fleet.agentRecords().filter((r) => !r.failure);
    expect(healthy).toHaveLength(50);
    expect(run.deviations.filter((d) => !fleet.isInjected(d.tenantId, d.agentId)).map((d) => `${d.tenantId}/${d.agentId} ${d.detector} ${d.level} at ${d.atSeq}: ${d.message}`)).toEqual([]);
    expect(run.corrections.filter((c) => !fleet.isInjected(c.tenantId, c.agentId))).toEqual([]);
    for (const a of healthy) expect(a.milestonesDone.map((m) => m.id)).toEqual(a.milestones);
  });

  it("applies each tenant's own thresholds: the same monologue is caught after 2 (strict), 3 (balanced), 4 (lenient) messages", () => {
    const firstMonologue = (tenantId: string) => run.deviations.find((d) => d.tenantId === tenantId && d.detector === 'monologue');
    expect(firstMonologue('globex')).toMatchObject({ level: 'warning', count: 2 });
    expect(firstMonologue('acme')).toMatchObject({ level: 'warning', count: 3 });
    expect(firstMonologue('initech')).toMatchObject({ level: 'warning', count: 4 });
  });
});
