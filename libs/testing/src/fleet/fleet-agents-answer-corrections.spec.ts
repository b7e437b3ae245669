/**
 * Agents answer corrections as the field reports describe: a correction at or above what an agent
 * needs breaks its failure (it recovers and finishes its task), a weaker one is ignored and the ladder
 * climbs, and an agent that needs a human is frozen and escalated. Healthy agents get nothing.
 */
import type { Correction } from '@wayfinder/contracts';
import { CORRECTION_RANK } from './fleet.types';
import { navigateFleet } from './navigate-fleet';
import { SimulatedFleet } from './simulated-fleet';

describe('injected failures, with the correction ladder', () => {
  const fleet = new SimulatedFleet({ seed: 21, agents: 72, failures: 32 });
  const run = navigateFleet(fleet, { rounds: 400 });
  const records = fleet.agentRecords();

  it('settles: every agent finished or was frozen', () => {
    expect(fleet.settled).toBe(true);
  });

  it('corrects every injected failure and no healthy agent', () => {
    for (const a of records.filter((r) => r.failure)) expect({ agent: a.agentId, corrected: a.corrections.length > 0 }).toEqual({ agent: a.agentId, corrected: true });
    expect(run.corrections.filter((c) => !fleet.isInjected(c.tenantId, c.agentId))).toEqual([]);
  });

  it('recovers agents on the first correction strong enough, after ignoring weaker ones; freezes those that need a human', () => {
    const responsive = records.filter((r) => r.failure && r.failure.respondsTo !== 'human');
    const needHuman = records.filter((r) => r.failure?.respondsTo === 'human');
    expect(responsive.length).toBeGreaterThan(0);
    expect(needHuman.length).toBeGreaterThan(0);
    for (const a of responsive) {
      expect(a.state).toBe('done');
      const recovered = a.corrections.findIndex((c) => c.effect === 'recovered');
      expect(recovered).toBeGreaterThanOrEqual(0);
      expect(CORRECTION_RANK[a.corrections[recovered].action]).toBeGreaterThanOrEqual(CORRECTION_RANK[a.failure!.respondsTo]);
      for (const ignored of a.corrections.slice(0, recovered)) {
        expect(ignored.effect).toBe('ignored');
        expect(CORRECTION_RANK[ignored.action]).toBeLessThan(CORRECTION_RANK[a.failure!.respondsTo]);
      }
      expect(a.failure!.recoveredAtSeq).toBeGreaterThan(a.failure!.startSeq!);
    }
    for (const a of needHuman) {
      expect(a.state).toBe('frozen');
      expect(a.corrections.at(-1)).toMatchObject({ action: 'freeze', effect: 'frozen' });
      expect(run.escalations.some((e) => e.tenantId === a.tenantId && e.agentId === a.agentId)).toBe(true);
    }
  });

  it('climbs more than one rung of the ladder somewhere in the fleet', () => {
    const actions = new Set(run.corrections.map((c: Correction) => c.action));
    expect(actions).toEqual(expect.objectContaining(new Set(['hint', 'replan', 'freeze'])));
    expect(actions.has('hint') && actions.has('freeze')).toBe(true);
  });
});
