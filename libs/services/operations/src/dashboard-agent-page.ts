/**
 * An agent's page: its state (with Resume when it is frozen), the milestones of its map it reached and
 * where it is now, the corrections and what followed them, the persistence curve, and the timeline of its
 * steps — arguments, output, error, latency and tokens collapsed in `<details>` — with each deviation
 * (and the evidence its detector named) and each correction marked on the step it belongs to.
 */
import { persistenceCurveSvg } from '@wayfinder/evaluation';
import type { AgentTimeline, CorrectionStory, StepSummary } from '@wayfinder/history';
import { esc, page, q, stateBadge, time, type Viewer } from './dashboard-layout';

type Deviation = AgentTimeline['deviations'][number];

/** Milestones in the order the agent reached them, and the one it is on now. */
function milestones(t: AgentTimeline): string {
  const last = t.steps[t.steps.length - 1];
  if (!last) return '<p class="muted">No step yet.</p>';
  const seen: string[] = [];
  for (const s of t.steps) {
    for (const m of s.completed) if (!seen.includes(m)) seen.push(m);
    if (s.milestoneId !== null && !seen.includes(s.milestoneId)) seen.push(s.milestoneId);
  }
  const items = seen
    .map((m) => {
      const done = last.completed.includes(m);
      const current = m === last.milestoneId;
      return `<li class="${done ? 'done' : current ? 'current' : ''}"${current ? ' aria-current="step"' : ''}>${done ? '✓ ' : ''}${esc(m)}${current ? ` · ${Math.round(last.progress * 100)}%` : ''}</li>`;
    })
    .join('');
  const where = last.milestoneId === null ? 'at the end: every milestone done' : `on ${esc(last.milestoneId)} at ${Math.round(last.progress * 100)}%`;
  return `<p>Now ${where}, ${last.completed.length} milestone(s) completed (step ${last.seq}, located by ${esc(last.method)}).</p><ol class="milestones" aria-label="Milestones">${items}</ol>`;
}

function deviationMark(d: Deviation, viewer: Viewer): string {
  const action = d.falsePositive
    ? ' <em>— marked false positive</em>'
    : viewer.operator
      ? ` <button type="button" class="act" data-false-positive="${esc(d.deviationId)}">Mark as false positive</button>`
      : '';
  return `<div class="mark deviation" role="note" aria-label="Deviation ${esc(d.detector)} at step ${d.atSeq}"><strong>Deviation ${esc(d.detector)}</strong> (${esc(d.level)}, seen ${d.count}×, loop from step ${d.loopStartSeq}): ${esc(d.message)}${action}
${d.evidence !== undefined ? `<div class="small">Evidence:<pre>${esc(d.evidence)}</pre></div>` : ''}</div>`;
}

function correctionMark(c: CorrectionStory): string {
  return `<div class="mark correction" role="note" aria-label="Correction ${esc(c.correction.action)} at step ${c.correction.atSeq}"><strong>Correction: ${esc(c.correction.action)}</strong> (${esc(c.correction.severity)}) — ${esc(c.correction.summary)}<br>What followed: ${esc(c.followedBy)} — <em>${c.outcome}</em></div>`;
}

function stepDetail(s: StepSummary): string {
  const d = s.detail ?? {};
  const parts = [
    d.input !== undefined ? 'arguments' : '',
    d.output !== undefined ? 'output' : '',
    d.error !== undefined ? 'error' : '',
    d.latencyMs !== undefined ? `${Math.round(d.latencyMs)} ms` : '',
    s.tokens !== null ? `${s.tokens} tokens` : '',
  ].filter(Boolean);
  if (parts.length === 0) return '';
  const block = (label: string, text: string | undefined) => (text === undefined ? '' : `<div><span class="small muted">${label}</span><pre>${esc(text)}</pre></div>`);
  return `<details><summary>${parts.join(' · ')}</summary>${block('Arguments', d.input)}${block('Output', d.output)}${block('Error', d.error)}<p class="small muted">${d.latencyMs !== undefined ? `Latency ${Math.round(d.latencyMs)} ms. ` : ''}${s.tokens !== null ? `Tokens ${s.tokens}.` : ''}</p></details>`;
}

function timeline(t: AgentTimeline, viewer: Viewer, nowMs: number): string {
  const loopStart = t.agent.loopStartSeq;
  return t.steps
    .map((s) => {
      const devs = t.deviations.filter((d) => d.atSeq === s.seq);
      const cors = t.corrections.filter((c) => c.correction.atSeq === s.seq);
      const would = t.wouldSend.filter((c) => c.atSeq === s.seq);
      const cls = [devs.length > 0 ? 'flagged' : '', cors.length > 0 ? 'corrected' : ''].filter(Boolean).join(' ');
      return `<li id="step-${s.seq}"${cls ? ` class="${cls}"` : ''}><div class="step-head"><span class="seq">#${s.seq}</span><span class="kind">${esc(s.stepKind)}</span>${s.tool ? `<code>${esc(s.tool)}</code>` : ''}<span class="muted small">${esc(s.milestoneId ?? 'done')} · ${Math.round(s.progress * 100)}%${s.note ? ` · ${esc(s.note)}` : ''} · ${time(s.ts, nowMs)}</span></div>
${loopStart !== null && s.seq === loopStart ? '<div class="mark loop-start"><strong>loop start</strong></div>' : ''}${stepDetail(s)}${devs.map((d) => deviationMark(d, viewer)).join('')}${cors.map(correctionMark).join('')}${would.map((c) => `<div class="mark correction">Would have sent <strong>${esc(c.action)}</strong> (shadow mode): ${esc(c.summary)}</div>`).join('')}</li>`;
    })
    .join('');
}

export function agentPage(t: AgentTimeline, viewer: Viewer, nowMs = Date.now()): string {
  const a = t.agent;
  const tokens = t.steps.reduce((n, s) => n + (s.tokens ?? 0), 0);
  const resume = a.state === 'frozen' && viewer.operator ? ` <button type="button" class="primary" data-resume="${esc(a.agentId)}">Resume ${esc(a.agentId)}</button>` : '';
  const deviations = t.deviations.map((d) => `<li><a href="#step-${d.atSeq}">Deviation <strong>${esc(d.detector)}</strong></a> (${esc(d.level)}) at step ${d.atSeq}, loop from step ${d.loopStartSeq}: ${esc(d.message)}${d.falsePositive ? ' — marked false positive' : ''}</li>`).join('');
  const corrections = t.corrections
    .map((c) => `<li><a href="#step-${c.correction.atSeq}"><strong>${esc(c.correction.action)}</strong> at step ${c.correction.atSeq}</a>: ${esc(c.correction.summary)}<br>What followed: ${esc(c.followedBy)} — <em>${c.outcome}</em></li>`)
    .join('');
  const escalations = t.escalations.map((e) => `<li>${esc(e.reason)} — ${e.open ? 'open' : 'resumed'} (${time(e.ts, nowMs)})</li>`).join('');
  const body = `<h1>Agent ${esc(a.agentId)}</h1>
<section class="panel" aria-label="Summary"><p>State: <span id="agent-state">${stateBadge(a.state)}</span>${resume} <span id="resume-status" role="status"></span></p>
<p class="muted">Tenant ${esc(a.tenantId)} · task ${esc(a.taskId)} · ${t.steps.length} steps · ${tokens} tokens · first seen ${time(a.firstSeen, nowMs)} · last seen ${time(a.lastSeen, nowMs)}${a.loopStartSeq !== null ? ` · loop start: step ${a.loopStartSeq}` : ''}</p></section>
<section aria-labelledby="map" class="panel"><h2 id="map">Position on its map</h2>${milestones(t)}</section>
<div class="grid">
<section aria-labelledby="deviations" class="panel"><h2 id="deviations">Deviations</h2><ul>${deviations || '<li>None.</li>'}</ul></section>
<section aria-labelledby="corrections" class="panel"><h2 id="corrections">Corrections and what followed</h2><ul>${corrections || '<li>None.</li>'}</ul>${escalations ? `<h3>Escalations</h3><ul>${escalations}</ul>` : ''}</section>
</div>
<section aria-labelledby="curve" class="panel"><h2 id="curve">Persistence curve</h2><div class="scroll">${persistenceCurveSvg(t.curve, { title: `Persistence curve of ${a.agentId}` })}</div></section>
<section aria-labelledby="timeline" class="panel"><h2 id="timeline">Timeline</h2><p class="muted small">Each step's arguments, output, error, latency and tokens open on a click; deviations and corrections sit on the step they belong to.</p><ol class="timeline" aria-label="Steps of ${esc(a.agentId)}">${timeline(t, viewer, nowMs)}</ol></section>`;
  return page(`Agent ${a.agentId}`, body, viewer, 'none', { name: 'agent', data: { query: q(a.tenantId, viewer.local), agentId: a.agentId } });
}
