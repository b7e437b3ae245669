// The policy book (pure, @wayfinder/detection) resolves agent → task → tenant → profile, applies a new tenant policy live, keeps
// tenants apart, and shares one resolved policy among the agents that have no override of their own.
import { POLICY_SCHEMA, type TenantPolicy } from '@wayfinder/contracts';
import { PolicyBook } from './policy-book';

function tenantPolicy(tenantId: string, ts: string, body: Pick<TenantPolicy, 'policy' | 'tasks' | 'agents'>): TenantPolicy {
  return { schema: POLICY_SCHEMA, eventId: `${tenantId}-${ts}`, tenantId, ts, ...body };
}

describe('PolicyBook', () => {
  it('resolves agent over task over tenant over profile', () => {
    const book = new PolicyBook('balanced');
    book.apply(tenantPolicy('acme', '2026-01-01T00:00:00Z', {
      policy: { loop: { errorRepeatWarning: 7 } },
      tasks: { report: { loop: { errorRepeatWarning: 6 } } },
      agents: { 'agent-x': { loop: { errorRepeatWarning: 5 } } },
    }));
    expect(book.policyOf('acme', 'other', 'agent-1').loop.errorRepeatWarning).toBe(7);
    expect(book.policyOf('acme', 'report', 'agent-1').loop.errorRepeatWarning).toBe(6);
    expect(book.policyOf('acme', 'report', 'agent-x').loop.errorRepeatWarning).toBe(5);
    expect(book.policyOf('other-tenant', 'report', 'agent-x')).toEqual(new PolicyBook('balanced').policyOf('t', 'k', 'a'));
  });

  it('shares one resolved policy among agents without an override, and keeps overridden ones apart', () => {
    const book = new PolicyBook('balanced');
    book.apply(tenantPolicy('acme', '2026-01-01T00:00:00Z', { policy: {}, agents: { 'agent-x': { loop: { errorRepeatWarning: 5 } } } }));
    const shared = book.policyOf('acme', 'task', 'agent-1');
    for (let i = 2; i < 1_000; i++) expect(book.policyOf('acme', 'task', `agent-${i}`)).toBe(shared);
    expect(book.policyOf('acme', 'task', 'agent-x')).not.toBe(shared);
    expect(book.policyOf('beta', 'task', 'agent-1')).not.toBe(shared);
  });

  it('applies a newer tenant policy to the next lookup, ignores an older one, and touches no other tenant', () => {
    const book = new PolicyBook('balanced');
    book.apply(tenantPolicy('acme', '2026-01-02T00:00:00Z', { policy: { loop: { errorRepeatWarning: 4 } } }));
    const beta = book.policyOf('beta', 'task', 'agent-1');
    expect(book.policyOf('acme', 'task', 'agent-1').loop.errorRepeatWarning).toBe(4);
    expect(book.apply(tenantPolicy('acme', '2026-01-01T00:00:00Z', { policy: { loop: { errorRepeatWarning: 9 } } }))).toBe(false);
    expect(book.policyOf('acme', 'task', 'agent-1').loop.errorRepeatWarning).toBe(4);
    expect(book.apply(tenantPolicy('acme', '2026-01-03T00:00:00Z', { policy: { loop: { errorRepeatWarning: 3 } } }))).toBe(true);
    expect(book.policyOf('acme', 'task', 'agent-1').loop.errorRepeatWarning).toBe(3);
    expect(book.policyOf('beta', 'task', 'agent-1')).toBe(beta);
  });
});
