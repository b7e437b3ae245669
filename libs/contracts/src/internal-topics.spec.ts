import { parsePayload } from './topics';

const localized = {
  schema: 'wayfinder.localized.v1', eventId: 'e1', tenantId: 't1', ts: '2026-01-01T00:00:00.000Z',
  step: { schema: 'wayfinder.step.v1', eventId: 'e1', tenantId: 't1', agentId: 'a1', taskId: 'x', seq: 3, ts: '2026-01-01T00:00:00.000Z', kind: 'action', action: { tool: 'read', args: {} } },
  position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' },
};

describe('internal topics (envelope check)', () => {
  it('accepts an event a service wrote', () => {
    expect(parsePayload('wayfinder.localized.v1', localized).ok).toBe(true);
  });

  it.each([
    ['a wrong schema', { ...localized, schema: 'wayfinder.step.v1' }, 'schema'],
    ['a missing tenant', { ...localized, tenantId: undefined }, 'tenantId'],
    ['a step without seq', { ...localized, step: { ...localized.step, seq: -1 } }, 'step.seq'],
    ['a step of an unknown kind', { ...localized, step: { ...localized.step, kind: 'dance' } }, 'step.kind'],
    ['a step whose body is missing', { ...localized, step: { ...localized.step, action: undefined } }, 'step.action'],
    ['no position', { ...localized, position: 3 }, 'position'],
    ['not an object', [1, 2], '(root)'],
  ])('rejects %s, naming the field', (_, value, field) => {
    const result = parsePayload('wayfinder.localized.v1', value);
    expect(result).toEqual({ ok: false, error: expect.stringContaining(field) });
  });

  it('still validates in full when asked', () => {
    const result = parsePayload('wayfinder.localized.v1', { ...localized, position: { ...localized.position, progress: 7 } }, { full: true });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('position.progress') });
  });

  it('rejects a deviation without its level', () => {
    const result = parsePayload('wayfinder.deviations.v1', { schema: 'wayfinder.deviation.v1', eventId: 'd', tenantId: 't', ts: 'x', agentId: 'a', taskId: 'x', detector: 'ping_pong', atSeq: 1, loopStartSeq: 0, evidence: {} });
    expect(result.ok).toBe(false);
  });
});
