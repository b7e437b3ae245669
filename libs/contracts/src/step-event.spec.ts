import fc from 'fast-check';
import { MAX_TEXT_BYTES, TRUNCATION_MARKER } from './limits';
import { keyOf, parsePayload } from './topics';

const base = {
  schema: 'wayfinder.step.v1',
  eventId: 'e1',
  tenantId: 't1',
  agentId: 'a1',
  taskId: 'task1',
  runId: 'r1',
  seq: 0,
  ts: '2026-01-01T00:00:00.000Z',
};

const bodies: Record<string, unknown> = {
  action: { tool: 'search', args: { q: 'x' }, callId: 'c1' },
  observation: { tool: 'search', ok: true, content: { hits: [1, 2] } },
  message: { role: 'assistant', text: 'thinking', type: 'thought' },
  milestone: { id: 'm1', status: 'done', evidence: 'file written' },
  feedback: { text: 'use only official sources' },
  compaction: { reason: 'context limit' },
  plan: { subgoals: [{ id: 's1', text: 'collect sources', anchors: ['10 sources'] }] },
};

describe('StepEvent contract', () => {
  it.each(Object.keys(bodies))('accepts a valid %s step', (kind) => {
    const result = parsePayload('wayfinder.steps.v1', { ...base, kind, [kind]: bodies[kind] });
    expect(result.ok).toBe(true);
  });

  it('names the missing field in the error', () => {
    const result = parsePayload('wayfinder.steps.v1', { ...base, kind: 'action', action: { args: {} } });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('action.tool') });
  });

  it('rejects an unknown kind and names the discriminator', () => {
    const result = parsePayload('wayfinder.steps.v1', { ...base, kind: 'dance' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('kind');
  });

  it('rejects ids longer than 128 characters', () => {
    const result = parsePayload('wayfinder.steps.v1', { ...base, agentId: 'a'.repeat(129), kind: 'compaction', compaction: { reason: 'x' } });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('agentId') });
  });

  it('rejects args larger than 64 KiB', () => {
    const result = parsePayload('wayfinder.steps.v1', {
      ...base,
      kind: 'action',
      action: { tool: 'write', args: { body: 'x'.repeat(70 * 1024) } },
    });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('args') });
  });

  it('truncates text over 64 KiB with a marker instead of rejecting it', () => {
    const result = parsePayload('wayfinder.steps.v1', {
      ...base,
      kind: 'observation',
      observation: { tool: 'read', ok: true, content: '字'.repeat(40_000) },
    });
    expect(result.ok).toBe(true);
    if (result.ok && result.value.kind === 'observation') {
      const content = result.value.observation.content as string;
      expect(content.endsWith(TRUNCATION_MARKER)).toBe(true);
      expect(Buffer.byteLength(content, 'utf8')).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    }
  });

  it('keys per-agent topics by tenant and agent', () => {
    const result = parsePayload('wayfinder.steps.v1', { ...base, kind: 'feedback', feedback: { text: 'x' } });
    if (!result.ok) throw new Error(result.error);
    expect(keyOf('wayfinder.steps.v1', result.value)).toBe('t1:a1');
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = parsePayload('wayfinder.steps.v1', value);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });
});
