/**
 * The dashboard's pages (server-rendered, no framework): headings, tables with captions, labelled forms
 * and live regions, so that people and browser tests find things by role and text. The frame and the
 * security headers are dashboard-layout.ts; the fleet, agent and policy pages have a file each; the
 * escalations page and the login form are here.
 */
import type { EscalationView } from './history-queries';
import { esc, page, q, time, type Viewer } from './dashboard-layout';

export { DASHBOARD_CSP, DASHBOARD_HEADERS, esc, pageData, type PageData, type Viewer } from './dashboard-layout';
export { fleetPage, FLEET_PAGE_SIZE, type FleetPageInput } from './dashboard-fleet-page';
export { agentPage } from './dashboard-agent-page';
export { policyPage } from './dashboard-policy-page';

export interface TenantEscalation extends EscalationView {
  readonly tenantId: string;
}

/** Open escalations of the tenants the viewer reads (local mode: every tenant), newest first, with Resume. */
export function escalationsPage(escalations: readonly TenantEscalation[], viewer: Viewer, nowMs = Date.now()): string {
  const rows = escalations
    .map((e) => {
      const qs = q(e.tenantId, viewer.local);
      const resume = e.open && viewer.operator ? `<button type="button" class="primary" data-resume="${esc(e.agentId)}" data-tenant="${esc(e.tenantId)}">Resume ${esc(e.agentId)}</button>` : '';
      return `<tr><td><a href="/agents/${encodeURIComponent(e.agentId)}${qs}">${esc(e.agentId)}</a></td><td>${esc(e.tenantId)}</td><td>${esc(e.reason)}</td><td class="wide">${esc(e.correctionsTried.join(' → '))}</td><td>${e.loopStartSeq ?? '–'}</td><td>${time(e.ts, nowMs)}</td><td>${e.open ? 'open' : 'resumed'}</td><td>${resume}</td></tr>`;
    })
    .join('');
  const title = viewer.local ? 'Escalations' : `Escalations of ${viewer.tenantId}`;
  return page(
    title,
    `<h1>${esc(title)}</h1><section class="panel"><div class="scroll"><table class="agents"><caption>Frozen agents waiting for a person</caption><thead><tr><th scope="col">agent</th><th scope="col">tenant</th><th scope="col">reason</th><th scope="col" class="wide">tried</th><th scope="col">loop start</th><th scope="col">since</th><th scope="col">status</th><th scope="col">action</th></tr></thead><tbody>${rows || '<tr><td colspan="8" class="muted">No agent is waiting for a person.</td></tr>'}</tbody></table></div></section>`,
    viewer,
    'escalations',
    { name: 'escalations', data: { local: viewer.local } },
  );
}

/**
 * The tenant's API keys (operators only; a viewer gets the reason instead): the list, a form creating
 * one (the new key shown once) and a Revoke button per active key, all through `/v1/keys` (keys.js).
 */
export function keysPage(viewer: Viewer): string {
  const title = `API keys of ${viewer.tenantId}`;
  if (!viewer.operator) return page(title, `<h1>${esc(title)}</h1><section class="panel"><p role="alert">Keys are managed with an operator key; this session has the viewer role.</p></section>`, viewer, 'keys');
  const localNote = viewer.local ? '<p class="muted small">Local mode: the first key created ends local mode; the dashboard then asks for a key (copy it before leaving this page).</p>' : '';
  const body = `<h1>${esc(title)}</h1>
<section class="panel" aria-labelledby="create-h"><h2 id="create-h">Create a key</h2>${localNote}
<form id="create-key" class="filters"><label>Role<select name="role"><option value="operator">operator (acts)</option><option value="viewer">viewer (reads)</option></select></label><button type="submit" class="primary">Create key</button></form>
<div id="key-result" role="status" aria-live="polite"></div></section>
<section class="panel" aria-labelledby="keys-h"><h2 id="keys-h">Keys</h2><div class="scroll"><table class="keys"><caption>Stored keys of ${esc(viewer.tenantId)} (keys from WAYFINDER_API_KEYS are not listed)</caption><thead><tr><th scope="col">key id</th><th scope="col">role</th><th scope="col">created</th><th scope="col">status</th><th scope="col">action</th></tr></thead><tbody><tr><td colspan="5" class="muted">Loading…</td></tr></tbody></table></div></section>`;
  return page(title, body, viewer, 'keys', { name: 'keys', data: { query: q(viewer.tenantId, viewer.local), local: viewer.local, tenantId: viewer.tenantId } });
}

export function loginPage(error?: string): string {
  return page('Log in', `<h1>Log in to Wayfinder</h1><section class="panel">${error ? `<p role="alert">${esc(error)}</p>` : ''}<form method="post" action="/login" class="filters"><label for="key">API key<input id="key" name="key" type="password" autocomplete="current-password" required></label> <button type="submit" class="primary">Log in</button></form></section>`, undefined, 'none');
}
