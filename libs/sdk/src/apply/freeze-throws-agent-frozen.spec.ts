/** A freeze stops the agent with a typed error it can catch, carrying the escalation id. */
import { AgentFrozenError, applyCorrection } from './apply-correction';
import { freeze, hint } from './correction-fixtures.testing';

describe('applyCorrection: freeze', () => {
  it('throws AgentFrozenError with the reason and escalation', () => {
    let caught: unknown;
    try {
      applyCorrection([{ role: 'user', content: 'task' }], freeze);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AgentFrozenError);
    expect(caught).toMatchObject({ escalationId: 'esc-1', message: "wayfinder froze agent agent-1: dangerous tool rm_rf (escalation esc-1). A human must resume it: `npx wayfinder agent resume agent-1`, the dashboard's agent page, or POST /v1/agents/agent-1/resume." });
    expect((caught as AgentFrozenError).correction.eventId).toBe('cor-freeze');
    expect(() => applyCorrection([], hint('x'))).not.toThrow();
  });
});
