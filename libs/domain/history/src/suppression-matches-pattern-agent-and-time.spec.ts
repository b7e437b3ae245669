import type { Deviation, Suppression } from '@wayfinder/contracts';
import { SuppressionBook } from './suppression-book';

const T = Date.parse('2026-03-01T10:00:00.000Z');
const suppression = (ts: number, until: number, patterns = 1): Suppression => ({
  schema: 'wayfinder.suppression.v1', eventId: `s-${ts}`, tenantId: 'acme', ts: new Date(ts).toISOString(), agentId: 'a1',
  patterns: Array.from({ length: patterns }, () => ({ detector: 'generic_repeat' as const, tool: 'search', argsHash: 'abc', until: new Date(until).toISOString(), deviationId: 'd1' })),
});
const deviation = (over: Partial<Pick<Deviation, 'tenantId' | 'agentId' | 'detector'>> = {}, evidence: Record<string, string> = { tool: 'search', argsHash: 'abc' }) => ({
  tenantId: 'acme', agentId: 'a1', detector: 'generic_repeat' as const, evidence, ...over,
});

describe('a suppression applies to its pattern, its agent and its time only', () => {
  it('suppresses the marked pattern of the agent until its time', () => {
    const book = new SuppressionBook();
    book.apply(suppression(T, T + 60_000));
    expect(book.suppresses(deviation(), T + 1_000)).toBe(true);
    expect(book.suppresses(deviation(), T + 60_000)).toBe(false);
    expect(book.size).toBe(0);
  });

  it('leaves other agents, tenants, detectors, tools and arguments alone', () => {
    const book = new SuppressionBook();
    book.apply(suppression(T, T + 60_000));
    expect(book.suppresses(deviation({ agentId: 'a2' }), T)).toBe(false);
    expect(book.suppresses(deviation({ tenantId: 'globex' }), T)).toBe(false);
    expect(book.suppresses(deviation({ detector: 'ping_pong' }), T)).toBe(false);
    expect(book.suppresses(deviation({}, { tool: 'fetch', argsHash: 'abc' }), T)).toBe(false);
    expect(book.suppresses(deviation({}, { tool: 'search', argsHash: 'def' }), T)).toBe(false);
  });

  it('keeps the newest set: an older event does not bring back what a newer one cleared', () => {
    const book = new SuppressionBook();
    book.apply(suppression(T + 10, T + 60_000, 0));
    expect(book.apply(suppression(T, T + 60_000))).toBe(false);
    expect(book.suppresses(deviation(), T + 20)).toBe(false);
  });
});
