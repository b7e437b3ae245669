// Ladders are per (tenant, agent) in the one composite-key encoding: a tenant whose ids join to another
// tenant's under `tenant:agent` never climbs, freezes or reads the other's ladder, nor exports it.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW } from './ladder-scenario.testing';

describe('tenants with colliding composite ids', () => {
  it('keep their ladders apart', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    const frozen = { ...deviation('constraint_violation', 5, { level: 'critical', count: 1, evidence: { tool: 'drop_table' } }), tenantId: 'acme:eu', agentId: 'bot' };
    engine.onDeviation(frozen, ctx);
    expect(engine.isFrozen('acme:eu', 'bot', 'run-1')).toBe(true);
    expect(engine.isFrozen('acme', 'eu:bot', 'run-1')).toBe(false);
    expect(engine.exportAgentState('acme', 'eu:bot')).toBeUndefined();
    const other = { ...deviation('generic_repeat', 6), tenantId: 'acme', agentId: 'eu:bot' };
    expect(engine.onDeviation(other, ctx).corrections.map((c) => c.action)).toEqual(['hint']);
  });
});
