// Issue #29: a `tenantId` containing `'` was placed inside a single-quoted string of the escalations
// page's inline script (encodeURIComponent leaves `'` and `()` as they are), so a tenant named
// `x'-alert(1)-'` ran code in the operator's browser. Pages now have no inline script: the tenant id
// reaches the static script as JSON data. The script is run here against a stub DOM: the resume button
// must fetch the tenant's own resume URL with the session's CSRF token, and nothing else may run.
import { runInNewContext } from 'node:vm';
import { DASHBOARD_SCRIPTS } from './dashboard-assets';
import { escalationsPage, pageData, type TenantEscalation } from './dashboard-pages';

const HOSTILE = `x'-alert(1)-'</script><script>alert(2)</script><!--`;

function dataBlock(html: string): string {
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  // One JSON block and one external script; nothing inline runs.
  expect(scripts.map((s) => s[1])).toEqual([' type="application/json" id="wayfinder-page"', ' src="/dashboard/assets/escalations.js"']);
  return scripts[0][2];
}

describe('a tenant id with a quote on the escalations page', () => {
  it('reaches the page script as data: the resume button fetches its own URL with the CSRF token and nothing runs', async () => {
    const escalation = { agentId: 'agent-1', tenantId: HOSTILE, reason: 'looping', loopStartSeq: 4, open: true, ts: new Date().toISOString(), correctionsTried: ['hint'] } as unknown as TenantEscalation;
    const html = escalationsPage([escalation], { tenantId: HOSTILE, local: true, operator: true, csrfToken: 'csrf-of-this-session' });
    const block = dataBlock(html);
    const alerts: unknown[] = [];
    const fetched: Array<{ url: string; headers: Record<string, string> }> = [];
    let click: (() => Promise<void>) | undefined;
    // The tenant comes from the button's data (the page renders it escaped, the DOM gives it back as text).
    const button = { dataset: { resume: 'agent-1', tenant: HOSTILE }, addEventListener: (_: string, handler: () => Promise<void>) => (click = handler), replaceWith: () => undefined };
    expect(html).toContain(`data-tenant="${HOSTILE.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}"`);
    runInNewContext(DASHBOARD_SCRIPTS['escalations.js'], {
      document: {
        querySelectorAll: (selector: string) => (selector === '[data-resume]' ? [button] : []),
        querySelector: () => null,
        getElementById: (id: string) => (id === 'wayfinder-page' ? { textContent: block } : null),
      },
      setInterval: () => 0,
      fetch: async (url: string, init: { headers: Record<string, string> }) => {
        fetched.push({ url, headers: init.headers });
        return { ok: true, status: 202 };
      },
      alert: (value: unknown) => alerts.push(value),
      encodeURIComponent,
      JSON,
    });
    await click?.();
    expect(alerts).toEqual([]);
    expect(fetched).toEqual([{ url: `/v1/agents/agent-1/resume?tenantId=${encodeURIComponent(HOSTILE)}`, headers: { 'x-csrf-token': 'csrf-of-this-session', 'content-type': 'application/json' } }]);
  });

  it('encodes any text as JSON data that cannot close the element and parses back to itself', () => {
    for (const text of [HOSTILE, '"\\', '\u2028\u2029', '</SCRIPT>', '<!--<script>']) {
      const data = pageData({ query: text });
      expect(data).not.toMatch(/</);
      expect(JSON.parse(data).query).toBe(text);
    }
  });
});
