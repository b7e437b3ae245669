// The pages as rendered: an agent's deviation (with its evidence) and its correction sit on the step they
// belong to, step details are collapsed, Resume shows for a frozen agent and only to an operator, text is
// escaped; the policy page shows the effective values and marks what differs from the profile.
import type { TenantPolicy } from '@wayfinder/contracts';
import { agentTimelineOf, type AgentEntry } from '@wayfinder/history';
import { correctionRecord, deviationRecord, stepRecord, T0 } from '@wayfinder/history/testing';
import { agentPage, policyPage, type Viewer } from './dashboard-pages';

const OPERATOR: Viewer = { tenantId: 'acme', local: false, operator: true, csrfToken: 'tok' };
const VIEWER: Viewer = { tenantId: 'acme', local: false, operator: false };
const A = { tenantId: 'acme', agentId: 'a<1>' };
const ENTRY: AgentEntry = { agentId: 'a<1>', taskId: 'task-1', runId: null, firstSeen: new Date(T0).toISOString(), lastSeen: new Date(T0 + 4_000).toISOString(), lastSeq: 3 };

function stepItem(html: string, seq: number): string {
  const start = html.indexOf(`<li id="step-${seq}"`);
  return html.slice(start, html.indexOf('</li>', start));
}

describe('the agent page', () => {
  const history = [
    stepRecord(A, 1, T0, { detail: { input: '{"path":"<x>"}', latencyMs: 420 }, tokens: 512 }),
    stepRecord(A, 2, T0 + 1_000),
    deviationRecord(A, 2, T0 + 1_100, { evidence: '{"tool":"search","repeats":3}' }),
    correctionRecord(A, 2, T0 + 1_200, { action: 'freeze', deviationIds: ['d-a<1>-2'] }),
    stepRecord(A, 3, T0 + 2_000),
  ];
  const timeline = agentTimelineOf('acme', ENTRY, history);

  it('marks the deviation with its evidence and the correction on their step, details collapsed', () => {
    const html = agentPage(timeline, OPERATOR, T0 + 5_000);
    const two = stepItem(html, 2);
    expect(two).toContain('aria-label="Deviation generic_repeat at step 2"');
    expect(two).toContain('Evidence:<pre>{&quot;tool&quot;:&quot;search&quot;,&quot;repeats&quot;:3}</pre>');
    expect(two.indexOf('Correction: freeze')).toBeGreaterThan(two.indexOf('Deviation generic_repeat'));
    expect(stepItem(html, 3)).not.toContain('mark deviation');
    const one = stepItem(html, 1);
    expect(one).toContain('<details><summary>arguments · 420 ms · 512 tokens</summary>');
    expect(one).not.toContain('<details open');
    expect(one).toContain('{&quot;path&quot;:&quot;&lt;x&gt;&quot;}');
    expect(html).toContain('<h1>Agent a&lt;1&gt;</h1>');
  });

  it('offers Resume on a frozen agent to an operator only, and marking a false positive likewise', () => {
    expect(timeline.agent.state).toBe('frozen');
    const operator = agentPage(timeline, OPERATOR, T0 + 5_000);
    expect(operator).toContain('data-resume="a&lt;1&gt;"');
    expect(operator).toContain('data-false-positive=');
    const viewer = agentPage(timeline, VIEWER, T0 + 5_000);
    expect(viewer).not.toContain('data-resume');
    expect(viewer).not.toContain('data-false-positive');
    expect(viewer).toContain('5 s ago');
  });
});

describe('the policy page', () => {
  const doc: TenantPolicy = { schema: 'wayfinder.policy.v1', eventId: 'p1', tenantId: 'acme', ts: new Date(T0).toISOString(), policy: { loop: { warning: 4 } } } as TenantPolicy;

  it('shows effective values, what differs from the profile, and inputs an operator can edit', () => {
    const html = policyPage('acme', doc, 'balanced', OPERATOR);
    expect(html).toContain('1 setting(s) differ from it');
    expect(html).toMatch(/<tr class="differs"><th scope="row"><label for="p-loop.warning"><code>loop.warning<\/code><\/label><\/th><td><input id="p-loop.warning" name="loop.warning" data-kind="number" data-original="4" value="4"/);
    expect(html).toContain('<details open data-section="loop">');
    expect(html).toContain('Save changes');
    expect(policyPage('acme', doc, 'balanced', VIEWER)).toMatch(/name="loop.warning"[^>]* disabled/);
    expect(policyPage('acme', undefined, 'balanced', OPERATOR)).toContain('0 setting(s) differ from it');
  });
});
