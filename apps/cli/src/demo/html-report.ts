/**
 * The demo's HTML report: one self-contained file (inline CSS and SVG, no scripts, no external assets)
 * with the fleet summary (also as a JSON data block, for tools), the tenants and their thresholds, every correction with its outcome, and a
 * timeline per agent with the loop start marked, milestones, deviations and corrections on it, and the
 * persistence curves (DESIGN §9) of agents that looped and recovered.
 */
import type { Correction, Deviation } from '@wayfinder/contracts';
import { persistenceCurveSvg, type GoalPersistenceReport } from '@wayfinder/evaluation';
import type { AgentRecord, ReceivedCorrection } from '@wayfinder/testing';
import { agentKey, type DemoSummary, type Outcomes } from './demo-summary';

export interface ReportInput {
  summary: DemoSummary;
  agents: readonly AgentRecord[];
  deviations: readonly Deviation[];
  corrections: readonly Correction[];
  effects: ReadonlyMap<string, ReceivedCorrection>;
  /** Each agent's goal persistence, when it was tracked. */
  persistence?: (tenantId: string, agentId: string) => GoalPersistenceReport | undefined;
  /** Wall-clock facts shown but not part of the summary. */
  generatedAt: string;
  elapsedMs: number;
}

const ACTION_COLOR: Record<string, string> = { hint: '#2563eb', rollback: '#7c3aed', replan: '#0d9488', freeze: '#111827' };

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function pct(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–';
}

function outcomeCells(o: Outcomes): string {
  return [o.injected, o.started, `${o.detected} (${pct(o.detected, o.started)})`, o.corrected, `${o.healed} (${pct(o.healed, o.started)})`, o.escalated].map((v) => `<td>${esc(v)}</td>`).join('');
}

const OUTCOME_HEAD = '<th>injected</th><th>failure started</th><th>detected</th><th>corrected</th><th>healed</th><th>escalated</th>';

function summarySection(s: DemoSummary, input: ReportInput): string {
  const states = Object.entries(s.agentsByState).map(([k, v]) => `<li><b>${esc(v)}</b> ${esc(k)}</li>`).join('');
  const heal = s.selfHeal.rate === null ? 'n/a' : `${s.selfHeal.rate} (${s.selfHeal.healed} healed / ${s.selfHeal.failed} not)`;
  const kinds = Object.entries(s.byKind)
    .filter(([, o]) => o.injected > 0)
    .map(([k, o]) => `<tr><td>${esc(k)}</td>${outcomeCells(o)}</tr>`)
    .join('');
  const detectors = Object.entries(s.deviationsByDetector).map(([k, v]) => `${esc(k)} ${esc(v)}`).join(', ') || 'none';
  const actions = Object.entries(s.correctionsByAction).map(([k, v]) => `${esc(k)} ${esc(v)}`).join(', ') || 'none';
  return `<section id="summary"><h2>Fleet summary</h2>
<p>Seed <b>${esc(s.seed)}</b>, ${esc(s.agents)} agents in ${esc(s.tenants)} tenants, ${esc(s.rounds)} rounds, ${esc(s.steps)} step events
(run took ${esc((input.elapsedMs / 1000).toFixed(1))} s; generated ${esc(input.generatedAt)}).</p>
<ul class="states">${states}</ul>
<table><tr><th>failure</th>${OUTCOME_HEAD}</tr>${kinds}<tr class="total"><td>all</td>${outcomeCells(s)}</tr></table>
<p>Deviations: <b>${esc(s.deviations)}</b> (${detectors}). Corrections: <b>${esc(s.corrections)}</b> (${actions}). Escalations: <b>${esc(s.escalations)}</b>.</p>
<p>Self-heal rate (correction engine): <b>${esc(heal)}</b>. Healthy agents flagged: <b>${esc(s.healthyFlagged)}</b>, corrected: <b>${esc(s.healthyCorrected)}</b>.</p>
</section>`;
}

function tenantsSection(s: DemoSummary): string {
  const keys = Object.keys(s.byTenant[0]?.thresholds ?? {});
  const rows = s.byTenant
    .map((t) => `<tr><td>${esc(t.tenantId)}</td><td>${esc(t.label)}</td><td>${esc(t.agents)}</td>${outcomeCells(t)}<td>${esc(t.meanStepsToDetect ?? '–')}</td><td>${esc(t.healthyCorrected)}</td></tr>`)
    .join('');
  const thresholdRows = keys.map((k) => `<tr><td>${esc(k)}</td>${s.byTenant.map((t) => `<td>${esc(t.thresholds[k])}</td>`).join('')}</tr>`).join('');
  return `<section id="tenants"><h2>Tenants and policies</h2>
<table><tr><th>tenant</th><th>policy</th><th>agents</th>${OUTCOME_HEAD}<th>mean steps to detect</th><th>healthy corrected</th></tr>${rows}</table>
<h3>Thresholds</h3>
<table><tr><th>setting</th>${s.byTenant.map((t) => `<th>${esc(t.tenantId)} (${esc(t.label)})</th>`).join('')}</tr>${thresholdRows}</table>
</section>`;
}

function correctionsSection(input: ReportInput): string {
  const agents = new Map(input.agents.map((a) => [agentKey(a), a]));
  const devById = new Map(input.deviations.map((d) => [d.eventId, d]));
  const rows = input.corrections
    .map((c) => {
      const a = agents.get(agentKey(c));
      const cited = [...new Set(c.deviationIds.map((id) => devById.get(id)?.detector).filter(Boolean))].join(', ');
      const received = input.effects.get(c.eventId);
      const effect = received?.effect ?? '–';
      const fit = received?.chance === undefined ? '–' : `${received.specific ? 'fits' : 'generic'}, ${Math.round(received.chance * 100)}%`;
      return `<tr class="effect-${esc(effect)}"><td>${esc(c.tenantId)}</td><td><a href="#${esc(anchorOf(c))}">${esc(c.agentId)}</a></td><td>${esc(a?.failure?.kind ?? 'healthy')}</td><td>${esc(a?.failure?.startSeq ?? '–')}</td><td>${esc(cited)}</td><td>${esc(c.atSeq)}</td><td>${esc(c.action)}</td><td>${esc(c.severity)}</td><td>${esc(effect)}</td><td>${esc(fit)}</td><td class="reason">${esc(c.reason.slice(0, 240))}</td></tr>`;
    })
    .join('');
  return `<section id="corrections"><h2>Corrections and their outcome</h2>
<p>Outcome: <i>recovered</i> — the agent changed course; <i>ignored</i> — it did not break the failure, the ladder climbed; <i>frozen</i> — stopped and escalated to a human; <i>unneeded</i> — the agent was not failing.</p>
<table><tr><th>tenant</th><th>agent</th><th>injected failure</th><th>loop start</th><th>detectors</th><th>at seq</th><th>action</th><th>severity</th><th>outcome</th><th>content (chance to recover)</th><th>reason</th></tr>${rows}</table>
<p>Content: whether the correction fit the failure — a hint naming the looping tool or argument, a rollback to a checkpoint before the loop, a replan from the open milestone naming what failed — and the chance it gave this agent (libs/testing/src/fleet/recovery-model.ts).</p>
</section>`;
}

function anchorOf(a: { tenantId: string; agentId: string }): string {
  return `agent-${a.tenantId}-${a.agentId}`;
}

function timeline(a: AgentRecord, devs: readonly Deviation[], maxSeq: number, effects: ReadonlyMap<string, ReceivedCorrection>, corrections: readonly Correction[]): string {
  const W = 720;
  const H = 26;
  const x = (seq: number) => (8 + (Math.max(0, seq) / Math.max(1, maxSeq)) * (W - 16)).toFixed(1);
  const parts: string[] = [`<line x1="${x(0)}" y1="13" x2="${x(a.lastSeq)}" y2="13" stroke="#9ca3af" stroke-width="2"/>`];
  const f = a.failure;
  if (f && f.startSeq !== null) {
    const end = f.recoveredAtSeq ?? a.lastSeq;
    parts.push(`<rect x="${x(f.startSeq)}" y="7" width="${Math.max(2, Number(x(end)) - Number(x(f.startSeq))).toFixed(1)}" height="12" fill="#fecaca"><title>${esc(f.kind)} from seq ${f.startSeq}${f.recoveredAtSeq !== null ? ` to ${f.recoveredAtSeq}` : ''}</title></rect>`);
    parts.push(`<line class="loop-start" x1="${x(f.startSeq)}" y1="2" x2="${x(f.startSeq)}" y2="24" stroke="#dc2626" stroke-width="2"><title>loop start: seq ${f.startSeq} (${esc(f.kind)})</title></line>`);
  }
  for (const m of a.milestonesDone) parts.push(`<rect x="${(Number(x(m.seq)) - 1.5).toFixed(1)}" y="5" width="3" height="16" fill="#16a34a"><title>milestone ${esc(m.id)} done at seq ${m.seq}</title></rect>`);
  for (const d of devs) {
    const cx = Number(x(d.atSeq));
    parts.push(`<path d="M${cx - 4} 24 L${cx + 4} 24 L${cx} 17 Z" fill="${d.level === 'critical' ? '#b91c1c' : '#f59e0b'}"><title>${esc(d.detector)} ${esc(d.level)} at seq ${d.atSeq} (loop start ${d.loopStartSeq})</title></path>`);
  }
  for (const c of corrections) {
    parts.push(`<circle cx="${x(c.atSeq)}" cy="6" r="4" fill="${ACTION_COLOR[c.action] ?? '#000'}"><title>${esc(c.action)} (${esc(c.severity)}) at seq ${c.atSeq}: ${esc(effects.get(c.eventId)?.effect ?? '')}</title></circle>`);
  }
  const label = f ? `${f.kind} → ${f.respondsTo === 'human' ? 'needs a human' : `yields to ${f.respondsTo}`}` : 'healthy';
  return `<div class="agent" id="${esc(anchorOf(a))}"><span class="name">${esc(a.tenantId)}/${esc(a.agentId)}</span><span class="state state-${esc(a.state)}">${esc(a.state)}</span><span class="label">${esc(label)}</span><svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="timeline of ${esc(a.agentId)}">${parts.join('')}</svg></div>`;
}

function timelinesSection(input: ReportInput): string {
  const devsByAgent = new Map<string, Deviation[]>();
  for (const d of input.deviations) devsByAgent.set(agentKey(d), [...(devsByAgent.get(agentKey(d)) ?? []), d]);
  const corByAgent = new Map<string, Correction[]>();
  for (const c of input.corrections) corByAgent.set(agentKey(c), [...(corByAgent.get(agentKey(c)) ?? []), c]);
  const maxSeq = Math.max(1, ...input.agents.map((a) => a.lastSeq));
  const render = (a: AgentRecord) => timeline(a, devsByAgent.get(agentKey(a)) ?? [], maxSeq, input.effects, corByAgent.get(agentKey(a)) ?? []);
  const injected = input.agents.filter((a) => a.failure);
  const flaggedHealthy = input.agents.filter((a) => !a.failure && (devsByAgent.has(agentKey(a)) || corByAgent.has(agentKey(a))));
  const healthy = input.agents.filter((a) => !a.failure && !flaggedHealthy.includes(a));
  return `<section id="timelines"><h2>Agent timelines</h2>
<p class="legend">Steps left to right (seq). <span style="color:#dc2626">red line</span>: loop start; <span style="background:#fecaca">pink</span>: in the failure;
<span style="color:#16a34a">green</span>: milestone done; triangles: deviations (<span style="color:#f59e0b">warning</span>, <span style="color:#b91c1c">critical</span>);
circles: corrections (<span style="color:${ACTION_COLOR['hint']}">hint</span>, <span style="color:${ACTION_COLOR['rollback']}">rollback</span>, <span style="color:${ACTION_COLOR['replan']}">replan</span>, <b>freeze</b>). Hover for details.</p>
<h3>Agents with an injected failure (${injected.length})</h3>${injected.map(render).join('\n')}
${flaggedHealthy.length > 0 ? `<h3>Healthy agents that were flagged (${flaggedHealthy.length})</h3>${flaggedHealthy.map(render).join('\n')}` : ''}
<details><summary>Healthy agents (${healthy.length})</summary>${healthy.map(render).join('\n')}</details>
</section>`;
}

const PERSISTENCE_CURVES = 4;

function persistenceSection(input: ReportInput): string {
  if (!input.persistence) return '';
  const reports = input.agents.map((a) => ({ a, p: input.persistence!(a.tenantId, a.agentId) })).filter((x) => x.p !== undefined) as Array<{ a: AgentRecord; p: GoalPersistenceReport }>;
  if (reports.length === 0) return '';
  const mean = (xs: number[]) => (xs.length === 0 ? '–' : (xs.reduce((s, x) => s + x, 0) / xs.length).toFixed(2));
  const recovered = reports.filter(({ a }) => a.failure && a.corrections.some((c) => c.effect === 'recovered'));
  const notRecovered = reports.filter(({ a }) => a.failure && a.failure.startSeq !== null && !a.corrections.some((c) => c.effect === 'recovered'));
  const shown = [...recovered.slice(0, PERSISTENCE_CURVES - 1), ...notRecovered.slice(0, 1)];
  const curves = shown
    .map(({ a, p }) => {
      const healedBy = a.corrections.find((c) => c.effect === 'recovered');
      const title = `${a.tenantId}/${a.agentId}: ${a.failure!.kind} from seq ${a.failure!.startSeq}, ${healedBy ? `recovered after a ${healedBy.action}` : `not recovered (${a.state})`}`;
      return `<figure class="curve" id="curve-${esc(anchorOf(a))}">${persistenceCurveSvg(p.curve, { title })}<figcaption>${esc(title)} · consistency ${p.trajectoryConsistency.toFixed(2)}, anchor recall ${p.anchorRecall ?? '–'}, deviations ${p.deviations}, mean return ${p.meanReturnLength ?? '–'} steps</figcaption></figure>`;
    })
    .join('');
  const injected = reports.filter(({ a }) => a.failure);
  const healthy = reports.filter(({ a }) => !a.failure);
  return `<section id="persistence"><h2>Goal persistence</h2>
<table><tr><th>agents</th><th>anchor recall</th><th>trajectory consistency</th><th>rule coverage</th></tr>
<tr><td>with an injected failure (${injected.length})</td><td>${mean(injected.map((x) => x.p.anchorRecall ?? 0))}</td><td>${mean(injected.map((x) => x.p.trajectoryConsistency))}</td><td>${mean(injected.map((x) => x.p.ruleCoverage))}</td></tr>
<tr><td>healthy (${healthy.length})</td><td>${mean(healthy.map((x) => x.p.anchorRecall ?? 0))}</td><td>${mean(healthy.map((x) => x.p.trajectoryConsistency))}</td><td>${mean(healthy.map((x) => x.p.ruleCoverage))}</td></tr></table>
<p>Persistence curves: consistency over the agent's steps (solid: the last 10 judged steps; dashed: so far), deviations in red, corrections delivered as blue rules (H hint, R rollback, P replan, F freeze), milestones in green.</p>
${curves || '<p>No agent fell into its failure in this run.</p>'}
</section>`;
}

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#111827}h1{margin:0 0 4px}h2{margin-top:32px;border-bottom:1px solid #e5e7eb}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #e5e7eb;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f9fafb}
tr.total td{font-weight:bold}.states{display:flex;gap:16px;list-style:none;padding:0}.reason{max-width:420px;font-size:12px;color:#374151}
.agent{display:flex;align-items:center;gap:8px;font-size:12px;margin:1px 0}.agent .name{width:150px;font-family:monospace}.agent .label{width:190px;color:#4b5563}
.agent .state{width:70px}.state-frozen{color:#b91c1c;font-weight:bold}.state-done{color:#15803d}.effect-frozen td{background:#fef2f2}.effect-unneeded td{background:#fff7ed}
figure.curve{margin:12px 0}figure.curve figcaption{font-size:12px;color:#374151}`;

export function renderHtmlReport(input: ReportInput): string {
  const s = input.summary;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wayfinder demo report — seed ${esc(s.seed)}</title><style>${CSS}</style></head>
<body><h1>Wayfinder demo report</h1><p>A simulated fleet through the whole navigation pipeline, embedded: localization, detection, correction.</p>
${summarySection(s, input)}
${tenantsSection(s)}
${correctionsSection(input)}
${persistenceSection(input)}
${timelinesSection(input)}
<script type="application/json" id="summary-data">${JSON.stringify(s).replace(/</g, '\\u003c')}</script>
</body></html>
`;
}
