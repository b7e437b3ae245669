/**
 * The fleet page of one tenant: counts by state, the agents needing a person, deviations and corrections
 * per minute by detector, self-heal per rung, and the agents table with search, filters (tenant, state,
 * detector), sort and cursor pages. Rendered whole on the server (the filter form works without script);
 * the page's script (fleet.js) then follows `/v1/fleet/events` (SSE) and, as the fleet changes, re-reads
 * `/v1/agents` and `/v1/fleet` — the query API a script of one's own would read — and redraws in place,
 * drawing each fleet sample into the "agents by state over time" chart.
 */
import { DETECTORS } from '@wayfinder/contracts';
import { AGENT_SORTS, AGENT_STATES, type AgentPage, type AgentSummary, type DetectorRates, type FleetView } from '@wayfinder/history';
import { esc, page, q, stateBadge, time, type Viewer } from './dashboard-layout';

export const FLEET_PAGE_SIZE = 25;

export interface FleetPageInput {
  readonly fleet: FleetView & { perMinute: DetectorRates };
  readonly agents: AgentPage;
  /** The frozen and looping agents, newest first: the "needs a person" list. */
  readonly attention: readonly AgentSummary[];
  /** Tenants the viewer may pick (local mode: every tenant with history; else its own). */
  readonly tenants: readonly string[];
  /** The query string fields the table was rendered for: q, state, detector, sort. */
  readonly filters: Readonly<Record<string, string>>;
  readonly nowMs: number;
}

const SORT_LABELS: Record<(typeof AGENT_SORTS)[number], string> = { attention: 'needs a person first', lastSeen: 'last seen', agentId: 'agent id', deviations: 'most deviations' };

function options(values: readonly string[], selected: string | undefined, any?: string): string {
  return `${any ? `<option value="">${any}</option>` : ''}${values.map((v) => `<option value="${esc(v)}"${v === selected ? ' selected' : ''}>${esc(v)}</option>`).join('')}`;
}

export function agentRow(a: AgentSummary, local: boolean, nowMs: number): string {
  return `<tr data-agent="${esc(a.agentId)}"><td><a href="/agents/${encodeURIComponent(a.agentId)}${q(a.tenantId, local)}">${esc(a.agentId)}</a></td><td>${esc(a.taskId)}</td><td>${stateBadge(a.state)}</td><td class="wide small">${esc(a.detectors.join(', '))}</td><td class="num">${a.deviations}</td><td class="num">${a.corrections}</td><td>${time(a.lastSeen, nowMs)}</td></tr>`;
}

/** One small bar chart per detector: deviations (red) and corrections (blue) for each of the last minutes. */
export function rateSvg(deviations: readonly number[], corrections: readonly number[], label: string): string {
  const max = Math.max(1, ...deviations, ...corrections);
  const bars = deviations
    .map((d, i) => {
      const hd = Math.round((d / max) * 28);
      const hc = Math.round((corrections[i] / max) * 28);
      return `<rect class="d" x="${i * 12}" y="${30 - hd}" width="5" height="${hd}"/><rect class="c" x="${i * 12 + 5}" y="${30 - hc}" width="5" height="${hc}"/>`;
    })
    .join('');
  return `<svg class="rate" role="img" aria-label="${esc(label)}" width="${deviations.length * 12}" height="30" viewBox="0 0 ${deviations.length * 12} 30">${bars}</svg>`;
}

function ratesTable(rates: DetectorRates): string {
  const rows = rates.detectors
    .map((r) => {
      const d = r.deviations.reduce((a, b) => a + b, 0);
      const c = r.corrections.reduce((a, b) => a + b, 0);
      return `<tr><th scope="row">${esc(r.detector)}</th><td class="num">${d}</td><td class="num">${c}</td><td>${rateSvg(r.deviations, r.corrections, `${r.detector}: ${r.deviations.join(', ')} deviations and ${r.corrections.join(', ')} corrections per minute`)}</td></tr>`;
    })
    .join('');
  return `<div class="scroll"><table class="rates"><caption>Last ${rates.minutes} minutes (<span class="legend-d">■ deviations</span> <span class="legend-c">■ corrections</span> per minute)</caption><thead><tr><th scope="col">detector</th><th scope="col" class="num">deviations</th><th scope="col" class="num">corrections</th><th scope="col">per minute</th></tr></thead><tbody>${rows || '<tr><td colspan="4" class="muted">No deviation in the last minutes.</td></tr>'}</tbody></table></div>`;
}

export function attentionList(agents: readonly AgentSummary[], local: boolean, nowMs: number): string {
  return agents.length === 0
    ? '<li class="muted">Nobody needs a person now.</li>'
    : agents.map((a) => `<li>${stateBadge(a.state)} <a href="/agents/${encodeURIComponent(a.agentId)}${q(a.tenantId, local)}">${esc(a.agentId)}</a> <span class="muted small">${esc(a.taskId)} · ${time(a.lastSeen, nowMs)}${a.loopStartSeq !== null ? ` · loop from step ${a.loopStartSeq}` : ''}</span></li>`).join('');
}

export function fleetPage(input: FleetPageInput, viewer: Viewer): string {
  const { fleet, agents, filters, nowMs } = input;
  const tenantId = fleet.tenantId;
  const counts = AGENT_STATES.map((s) => `<li class="state-${s}"><span data-state="${s}">${fleet.states[s]}</span>${s}</li>`).join('');
  const heal = Object.entries(fleet.selfHealByRung)
    .map(([rung, h]) => `<tr><th scope="row">${esc(rung)}</th><td class="num">${h?.healed}/${h?.resolved}</td><td class="num">${h?.rate === null || h === undefined ? '–' : Math.round(h.rate * 100) + '%'}</td></tr>`)
    .join('');
  const tenantFilter = viewer.local
    ? `<label>Tenant<select name="tenantId">${options(input.tenants.includes(tenantId) ? input.tenants : [tenantId, ...input.tenants], tenantId)}</select></label>`
    : '';
  const form = `<form class="filters" role="search" method="get" action="/" aria-label="Filter agents">${tenantFilter}
<label>Search<input type="search" name="q" value="${esc(filters.q ?? '')}" placeholder="agent or task id" aria-label="Search agents"></label>
<label>State<select name="state">${options(AGENT_STATES, filters.state, 'any')}</select></label>
<label>Detector<select name="detector">${options(DETECTORS, filters.detector, 'any')}</select></label>
<label>Sort<select name="sort">${AGENT_SORTS.map((s) => `<option value="${s}"${s === (filters.sort ?? 'attention') ? ' selected' : ''}>${SORT_LABELS[s]}</option>`).join('')}</select></label>
<button type="submit" class="primary">Apply</button></form>`;
  const shown = agents.agents.map((a) => agentRow(a, viewer.local, nowMs)).join('');
  const body = `<h1>Fleet of ${esc(tenantId)}</h1>
<p class="muted" id="fleet-summary">${fleet.agents} agents, ${fleet.openEscalations} frozen waiting for a person. <span class="small" id="live-status">Live.</span></p>
<section aria-labelledby="by-state" class="panel"><h2 id="by-state">Agents by state</h2><ul class="counts">${counts}</ul>
<figure class="states-over-time"><figcaption class="small muted">Agents by state over time (since this page opened, a point every 2 s)</figcaption><svg class="states" id="state-chart" role="img" aria-label="agents by state over time" viewBox="0 0 600 120" preserveAspectRatio="none"></svg><ul class="legend">${AGENT_STATES.map((s) => `<li class="state-${s}">— ${s}</li>`).join('')}</ul></figure></section>
<div class="grid">
<section aria-labelledby="attention-h" class="panel"><h2 id="attention-h">Needs a person</h2><ul class="attention" id="attention">${attentionList(input.attention, viewer.local, nowMs)}</ul></section>
<section aria-labelledby="heal-h" class="panel"><h2 id="heal-h">Self-heal per rung</h2><table><thead><tr><th scope="col">rung</th><th scope="col" class="num">healed/resolved</th><th scope="col" class="num">rate</th></tr></thead><tbody>${heal || '<tr><td colspan="3" class="muted">No correction resolved yet.</td></tr>'}</tbody></table></section>
<section aria-labelledby="rates-h" class="panel wide-panel"><h2 id="rates-h">Deviations and corrections per minute</h2><div id="rates">${ratesTable(fleet.perMinute)}</div></section>
</div>
<section aria-labelledby="agents-h" class="panel"><h2 id="agents-h">Agents</h2>${form}
<div class="scroll"><table class="agents"><caption>Agents of ${esc(tenantId)}</caption><thead><tr><th scope="col">agent</th><th scope="col">task</th><th scope="col">state</th><th scope="col" class="wide">detectors</th><th scope="col" class="num">deviations</th><th scope="col" class="num">corrections</th><th scope="col">last seen</th></tr></thead><tbody aria-live="polite">${shown || '<tr><td colspan="7" class="muted">No agent matches.</td></tr>'}</tbody></table></div>
<div class="pager"><span id="page-info" class="muted small">${agents.total === 0 ? 'none' : `1–${agents.agents.length} of ${agents.total}`}</span><button type="button" class="act" data-page="first" disabled>First page</button><button type="button" class="act" data-page="next"${agents.nextCursor ? '' : ' disabled'}>Next page</button></div></section>`;
  return page(`Fleet of ${tenantId}`, body, viewer, 'fleet', { name: 'fleet', data: { query: q(tenantId, viewer.local), local: viewer.local, tenantId, filters: { ...filters }, limit: FLEET_PAGE_SIZE, states: { ...fleet.states } } });
}
