/**
 * The dashboard's pages as plain server-rendered HTML (no framework): headings, tables with captions,
 * labelled forms and live regions, so that people and browser tests find things by role and text. No
 * inline script: a page loads its script from `/dashboard/assets/` (dashboard-assets.ts) and hands it its
 * parameters as JSON data (pageData); the headers DASHBOARD_HEADERS (a strict Content-Security-Policy
 * among them) go with every page. The fleet page refreshes from the query API every 2 s (and reloads when
 * a new tenant appears on the local operator's page of every tenant).
 */
import { createHash } from 'node:crypto';
import { redactPolicySecrets, type TenantPolicy } from '@wayfinder/contracts';
import { persistenceCurveSvg } from '@wayfinder/evaluation';
import type { AgentSummary, AgentTimeline, FleetView } from '@wayfinder/history';
import { DASHBOARD_ASSETS_PATH, type DashboardScript } from './dashboard-assets';
import type { EscalationView } from './history-queries';

export function esc(text: unknown): string {
  return String(text ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:1.5rem;color:#1f2933;max-width:70rem}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
th,td{border:1px solid #cbd2d9;padding:.25rem .5rem;text-align:left}caption{text-align:left;font-weight:600;padding:.25rem 0}
.state-looping,.state-frozen{color:#9b1c1c;font-weight:600}.state-recovering{color:#8d5b00}.state-done{color:#276749}
.loop-start{background:#fff5f5}nav a{margin-right:1rem}button{font:inherit}`;

/** The parameters a page hands its script (read by dashboard-assets.ts). */
export interface PageData {
  /** `?tenantId=T` for the local operator, else empty: appended to the API paths the script calls. */
  query?: string;
  local?: boolean;
  everyTenant?: boolean;
  /** The session's CSRF token, sent back in `X-CSRF-Token` by state-changing requests. */
  csrfToken?: string;
}

/**
 * The headers of every dashboard page: scripts from the gateway's own origin only (no inline script, no
 * eval), the one inline `<style>` by its hash, no framing, no `<base>`, forms posting only to the
 * gateway; no MIME sniffing, no Referer leaving the page (its URL may carry `?tenantId=`).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

function page(title: string, body: string, script?: { name: DashboardScript; data: PageData }): string {
  const tail = script ? `<script type="application/json" id="wayfinder-page">${pageData(script.data)}</script><script src="${DASHBOARD_ASSETS_PATH}/${script.name}.js"></script>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><nav aria-label="Dashboard"><a href="/">Fleet</a><a href="/escalations">Escalations</a><a href="/policy">Policy</a></nav><main>${body}</main>${tail}</body></html>`;
}

/**
 * A page's parameters as the text of a `<script type="application/json">` block: JSON with `<` escaped,
 * so no `</script>` (or `<!--`) in a datum can end the block; the script reads it with JSON.parse, so a
 * tenant id holding `'` or `"` stays data.
 */
export function pageData(value: PageData): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function q(tenantId: string, local: boolean): string {
  return local ? `?tenantId=${encodeURIComponent(tenantId)}` : '';
}

function agentRows(agents: readonly AgentSummary[], local: boolean): string {
  return agents
    .map((a) => `<tr><td><a href="/agents/${encodeURIComponent(a.agentId)}${q(a.tenantId, local)}">${esc(a.agentId)}</a></td><td>${esc(a.taskId)}</td><td class="state-${a.state}">${a.state}</td><td>${a.deviations}</td><td>${a.corrections}</td><td><time datetime="${esc(a.lastSeen)}">${esc(a.lastSeen)}</time></td></tr>`)
    .join('');
}

export interface FleetSection {
  fleet: FleetView;
  agents: readonly AgentSummary[];
}

/**
 * The fleet page: a section per tenant. `everyTenant` (the local operator's page with no `?tenantId=`):
 * a tenant whose first agent appears after the page loaded has no section yet, so the refresh reloads the
 * page when `/v1/tenants` names one it does not show.
 */
export function fleetPage(sections: readonly FleetSection[], local: boolean, everyTenant = false): string {
  const body = sections
    .map(({ fleet, agents }) => {
      const id = `tenant-${esc(fleet.tenantId)}`;
      const counts = Object.entries(fleet.states).map(([s, n]) => `<tr><th scope="row">${s}</th><td data-state="${s}">${n}</td></tr>`).join('');
      const heal = Object.entries(fleet.selfHealByRung).map(([rung, h]) => `<tr><th scope="row">${rung}</th><td>${h?.healed}/${h?.resolved}</td><td>${h?.rate === null || h === undefined ? '–' : Math.round(h.rate * 100) + '%'}</td></tr>`).join('');
      const detectors = fleet.topDetectors.map((d) => `<tr><th scope="row">${d.detector}</th><td>${d.deviations}</td><td>${Math.round(d.falsePositiveShare * 100)}%</td></tr>`).join('');
      return `<section aria-labelledby="${id}" data-tenant="${esc(fleet.tenantId)}"><h2 id="${id}">Tenant ${esc(fleet.tenantId)}</h2>
<p>${fleet.agents} agents, ${fleet.openEscalations} frozen waiting for a person.</p>
<table><caption>Agents by state</caption><tbody>${counts}</tbody></table>
<table><caption>Self-heal per rung</caption><thead><tr><th scope="col">rung</th><th scope="col">healed/resolved</th><th scope="col">rate</th></tr></thead><tbody>${heal}</tbody></table>
<table><caption>Top detectors</caption><thead><tr><th scope="col">detector</th><th scope="col">deviations</th><th scope="col">marked false positive</th></tr></thead><tbody>${detectors}</tbody></table>
<table class="agents"><caption>Agents of ${esc(fleet.tenantId)}</caption><thead><tr><th scope="col">agent</th><th scope="col">task</th><th scope="col">state</th><th scope="col">deviations</th><th scope="col">corrections</th><th scope="col">last seen</th></tr></thead><tbody aria-live="polite">${agentRows(agents, local)}</tbody></table></section>`;
    })
    .join('');
  return page('Wayfinder fleet', `<h1>Wayfinder fleet</h1>${body || '<p>No agents yet.</p>'}`, { name: 'fleet', data: { local, everyTenant } });
}

export function agentPage(t: AgentTimeline, local: boolean, operator: boolean, csrfToken?: string): string {
  const a = t.agent;
  const qs = q(a.tenantId, local);
  const last = t.positions[t.positions.length - 1];
  const steps = t.steps
    .map((s) => {
      const start = a.loopStartSeq !== null && s.seq === a.loopStartSeq;
      return `<tr${start ? ' class="loop-start"' : ''}><td>${s.seq}</td><td>${esc(s.stepKind)}</td><td>${esc(s.tool ?? '')}</td><td>${esc(s.milestoneId ?? 'done')}</td><td>${Math.round(s.progress * 100)}%</td><td>${start ? '<strong>loop start</strong>' : esc(s.note ?? '')}</td></tr>`;
    })
    .join('');
  const deviations = t.deviations
    .map((d) => `<li>Deviation <strong>${esc(d.detector)}</strong> (${d.level}) at step ${d.atSeq}, loop from step ${d.loopStartSeq}: ${esc(d.message)}${d.falsePositive ? ' — marked false positive' : operator ? ` <button type="button" data-false-positive="${esc(d.deviationId)}">Mark as false positive</button>` : ''}</li>`)
    .join('');
  const corrections = t.corrections
    .map((c) => `<li><strong>${c.correction.action}</strong> at step ${c.correction.atSeq}: ${esc(c.correction.summary)}<br>What followed: ${esc(c.followedBy)} — <em>${c.outcome}</em></li>`)
    .join('');
  const would = t.wouldSend.map((c) => `<li>would send <strong>${c.action}</strong> at step ${c.atSeq}: ${esc(c.summary)}</li>`).join('');
  const escalations = t.escalations.map((e) => `<li>${esc(e.reason)} — ${e.open ? 'open' : 'resumed'}</li>`).join('');
  const body = `<h1>Agent ${esc(a.agentId)}</h1>
<p>Tenant ${esc(a.tenantId)}, task ${esc(a.taskId)}. State: <span class="state-${a.state}">${a.state}</span>. Last seen <time datetime="${esc(a.lastSeen)}">${esc(a.lastSeen)}</time>.${a.loopStartSeq !== null ? ` Loop start: step ${a.loopStartSeq}.` : ''}</p>
<section aria-labelledby="map"><h2 id="map">Position on its map</h2><p>${last ? `Now on ${esc(last.milestoneId ?? 'the end (all milestones done)')} at ${Math.round(last.progress * 100)}%, ${last.completed} milestone(s) completed.` : 'No step yet.'}</p></section>
<section aria-labelledby="deviations"><h2 id="deviations">Deviations</h2><ul>${deviations || '<li>None.</li>'}</ul></section>
<section aria-labelledby="corrections"><h2 id="corrections">Corrections and what followed</h2><ul>${corrections || '<li>None.</li>'}</ul>${would ? `<h3>Would have been sent (shadow mode)</h3><ul>${would}</ul>` : ''}</section>
${escalations ? `<section aria-labelledby="esc"><h2 id="esc">Escalations</h2><ul>${escalations}</ul></section>` : ''}
<section aria-labelledby="curve"><h2 id="curve">Persistence curve</h2>${persistenceCurveSvg(t.curve, { title: `Persistence curve of ${a.agentId}` })}</section>
<section aria-labelledby="timeline"><h2 id="timeline">Timeline</h2><table><caption>Steps of ${esc(a.agentId)}</caption><thead><tr><th scope="col">step</th><th scope="col">kind</th><th scope="col">tool</th><th scope="col">milestone</th><th scope="col">progress</th><th scope="col">note</th></tr></thead><tbody>${steps}</tbody></table></section>`;
  return page(`Agent ${a.agentId}`, body, { name: 'agent', data: { query: qs, ...(csrfToken !== undefined && { csrfToken }) } });
}

export function escalationsPage(tenantId: string, escalations: readonly EscalationView[], local: boolean, operator: boolean, csrfToken?: string): string {
  const qs = q(tenantId, local);
  const rows = escalations
    .map((e) => `<tr><td><a href="/agents/${encodeURIComponent(e.agentId)}${qs}">${esc(e.agentId)}</a></td><td>${esc(e.reason)}</td><td>${e.loopStartSeq ?? '–'}</td><td>${e.open ? 'open' : 'resumed'}</td><td>${e.open && operator ? `<button type="button" data-resume="${esc(e.agentId)}">Resume ${esc(e.agentId)}</button>` : ''}</td></tr>`)
    .join('');
  return page('Escalations', `<h1>Escalations of ${esc(tenantId)}</h1><table><caption>Escalations waiting for a person</caption><thead><tr><th scope="col">agent</th><th scope="col">reason</th><th scope="col">loop start</th><th scope="col">status</th><th scope="col">action</th></tr></thead><tbody>${rows}</tbody></table>`, { name: 'escalations', data: { query: qs, ...(csrfToken !== undefined && { csrfToken }) } });
}

export function policyPage(tenantId: string, policy: TenantPolicy | undefined): string {
  return page('Policy', `<h1>Policy of ${esc(tenantId)}</h1>${policy ? `<pre aria-label="Policy document">${esc(JSON.stringify(redactPolicySecrets(policy), null, 2))}</pre>` : '<p>No policy published: the built-in profile applies.</p>'}`);
}

export function loginPage(error?: string): string {
  return page('Log in', `<h1>Log in to Wayfinder</h1>${error ? `<p role="alert">${esc(error)}</p>` : ''}<form method="post" action="/login"><label for="key">API key</label> <input id="key" name="key" type="password" autocomplete="current-password" required> <button type="submit">Log in</button></form>`);
}
