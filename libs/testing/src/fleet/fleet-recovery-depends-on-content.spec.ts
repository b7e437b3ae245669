/**
 * In content mode a looping agent's chance to recover depends on what the correction says: a hint naming
 * the looping tool beats a generic one, a rollback to a checkpoint before the loop beats one after it, a
 * replan from the open milestone naming what failed beats an empty one. Nothing recovers by construction.
 */
import type { Correction } from '@wayfinder/contracts';
import { SimulatedFleet } from './simulated-fleet';

const AGENTS = 240;

function loopingFleet(): SimulatedFleet {
  const fleet = new SimulatedFleet({ seed: 5, agents: AGENTS, inject: Array.from({ length: AGENTS }, (_, agent) => ({ agent, kind: 'same_call' as const, respondsTo: 'hint' as const })), recovery: 'content' });
  for (let round = 0; round < 40; round++) fleet.nextSteps();
  return fleet;
}

function deliver(make: (tenantId: string, agentId: string, startSeq: number) => Correction): number {
  const fleet = loopingFleet();
  let recovered = 0;
  for (const f of fleet.groundTruth()) {
    expect(f.startSeq).not.toBeNull();
    if (fleet.applyCorrection(make(f.tenantId, f.agentId, f.startSeq!))?.effect === 'recovered') recovered++;
  }
  return recovered / AGENTS;
}

const base = (tenantId: string, agentId: string) => ({
  schema: 'wayfinder.correction.v1' as const,
  eventId: `c-${agentId}`,
  tenantId,
  ts: '2026-01-01T00:00:00Z',
  agentId,
  taskId: 't',
  runId: 'run-1',
  deviationIds: ['d'],
  severity: 'mild' as const,
  atSeq: 30,
  reason: 'loop',
});

describe('simulated agents answer what a correction says', () => {
  it('recovers more often from a hint naming the looping tool than from a generic hint, and not always', () => {
    const specific = deliver((t, a) => ({ ...base(t, a), action: 'hint', hint: { text: 'You called `read_file` with the same arguments 5 times and got the same result each time.' } }));
    const generic = deliver((t, a) => ({ ...base(t, a), action: 'hint', hint: { text: 'You seem to be stuck. Step back and try a different approach.' } }));
    expect(specific).toBeGreaterThan(0.6);
    expect(specific).toBeLessThan(0.9);
    expect(generic).toBeLessThan(0.2);
  });

  it('recovers more often from a rollback to a checkpoint before the loop than from one that restores nothing before it', () => {
    const before = deliver((t, a, start) => ({ ...base(t, a), action: 'rollback', rollback: { checkpointId: 'cp', milestoneId: 'm', discardAfterSeq: start - 1 } }));
    const after = deliver((t, a, start) => ({ ...base(t, a), action: 'rollback', rollback: { checkpointId: 'cp', milestoneId: 'm', discardAfterSeq: start + 3 } }));
    expect(before).toBeGreaterThan(after + 0.4);
  });

  it('recovers least from a replan with no path and a reason that names nothing', () => {
    const empty = deliver((t, a) => ({ ...base(t, a), action: 'replan', replan: { fromMilestoneId: null, remaining: [], reason: 'Make a new plan and continue.' } }));
    const named = deliver((t, a) => ({ ...base(t, a), action: 'replan', replan: { fromMilestoneId: null, remaining: [], reason: 'read_file keeps returning an empty file.' } }));
    expect(named).toBeGreaterThan(empty + 0.15);
  });
});
