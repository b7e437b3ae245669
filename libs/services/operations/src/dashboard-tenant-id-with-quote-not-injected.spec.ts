// Issue #29: a `tenantId` containing `'` was placed inside a single-quoted string of the escalations
// page's inline script (encodeURIComponent leaves `'` and `()` as they are), so a tenant named
// `x'-alert(1)-'` ran code in the operator's browser. The script is run here against a stub DOM: the
// resume button must fetch the tenant's own resume URL, and nothing else may run.
import { runInNewContext } from 'node:vm';
import { escalationsPage, scriptLiteral } from './dashboard-pages';
import type { EscalationView } from './history-queries';

const HOSTILE = `x'-alert(1)-'</script><script>alert(2)</script>`;

function inlineScript(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  return scripts[0][1];
}

describe('a tenant id with a quote on the escalations page', () => {
  it('reaches the page script as data: the resume button fetches its own URL and nothing runs', async () => {
    const escalation = { agentId: 'agent-1', reason: 'looping', loopStartSeq: 4, open: true } as unknown as EscalationView;
    const html = escalationsPage(HOSTILE, [escalation], true, true);
    const script = inlineScript(html);
    const alerts: unknown[] = [];
    const fetched: string[] = [];
    let click: (() => Promise<void>) | undefined;
    const button = { dataset: { resume: 'agent-1' }, addEventListener: (_: string, handler: () => Promise<void>) => (click = handler), replaceWith: () => undefined };
    runInNewContext(script, {
      document: { querySelectorAll: () => [button] },
      fetch: async (url: string) => {
        fetched.push(url);
        return { ok: true, status: 202 };
      },
      alert: (value: unknown) => alerts.push(value),
      encodeURIComponent,
    });
    await click?.();
    expect(alerts).toEqual([]);
    expect(fetched).toEqual([`/v1/agents/agent-1/resume?tenantId=${encodeURIComponent(HOSTILE)}`]);
  });

  it('quotes any text as a script literal that cannot close the element or the string', () => {
    for (const text of [HOSTILE, '"\\', '\u2028\u2029', '</SCRIPT>']) {
      const literal = scriptLiteral(text);
      expect(literal).not.toMatch(/<\/script/i);
      expect(runInNewContext(literal)).toBe(text);
    }
  });
});
