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
    expect(caught).toMatchObject({ escalationId: 'esc-1', message: 'wayfinder froze agent agent-1: dangerous tool rm_rf' });
    expect((caught as AgentFrozenError).correction.eventId).toBe('cor-freeze');
    expect(() => applyCorrection([], hint('x'))).not.toThrow();
  });
});
