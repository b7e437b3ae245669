/**
 * The A/B's HTML report: one self-contained file (inline CSS and SVG, no scripts, no external assets)
 * with the arms side by side, the differences against `none` with their intervals, and per arm the
 * persistence curve of the same injected agents (the first few that fell into a failure).
 */
import { persistenceCurveSvg } from '@wayfinder/evaluation';
import type { AbResult, Arm, ArmSummary } from '@wayfinder/evaluation';

const ROWS: Array<[keyof ArmSummary, string]> = [
  ['tasksCompleted', 'tasks completed'],
  ['anchorRecall', 'anchor recall'],
  ['consistency', 'trajectory consistency'],
  ['stepsPerCompletedTask', 'steps per completed task'],
  ['tokens', 'tokens'],
  ['selfHealRate', 'self-heal rate'],
  ['escalations', 'escalations'],
  ['correctionsDelivered', 'corrections delivered'],
];

const CURVES_PER_ARM = 3;

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function renderAbReport(result: AbResult): string {
  const arms = Object.keys(result.arms) as Arm[];
  const head = arms.map((a) => `<th scope="col">${esc(a)}</th>`).join('');
  const rows = ROWS.map(([key, label]) => `<tr><th scope="row">${esc(label)}</th>${arms.map((a) => `<td>${esc(result.arms[a]?.[key] ?? '–')}</td>`).join('')}</tr>`).join('');
  const rungs = arms.map((a) => `<td>${esc(Object.entries(result.arms[a]?.selfHealByRung ?? {}).map(([k, v]) => `${k} ${v?.rate ?? '–'} (${v?.healed}/${v?.resolved})`).join(', ') || '–')}</td>`).join('');
  const diffs = Object.entries(result.differences)
    .map(([arm, d]) => `<h3>${esc(arm)} − none</h3><table><tr><th scope="col">metric</th><th scope="col">difference</th><th scope="col">95% interval</th></tr>${Object.entries(d ?? {})
      .map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v.estimate)}</td><td>[${esc(v.ci95[0])}, ${esc(v.ci95[1])}]</td></tr>`)
      .join('')}</table>`)
    .join('');
  const injected = (result.outcomes[arms[0]] ?? []).filter((o) => o.injected).slice(0, CURVES_PER_ARM).map((o) => `${o.tenantId}\u0000${o.agentId}`);
  const curves = injected
    .map((key) => {
      const cells = arms
        .map((arm) => {
          const o = result.outcomes[arm]?.find((x) => `${x.tenantId}\u0000${x.agentId}` === key);
          if (!o) return '<td>–</td>';
          const title = `${arm}: ${o.tenantId}/${o.agentId} ${o.completed ? 'completed' : o.frozen ? 'frozen' : 'not completed'}`;
          return `<td>${persistenceCurveSvg(o.curve, { title, width: 420, height: 180 })}</td>`;
        })
        .join('');
      return `<tr>${cells}</tr>`;
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wayfinder goal-persistence A/B · seed ${esc(result.seed)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2933}table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #d9dee3;padding:.3rem .6rem;text-align:left;vertical-align:top}th{background:#f5f7fa}</style>
</head><body>
<h1>Goal-persistence A/B</h1>
<p>Seed <b>${esc(result.seed)}</b>, ${esc(result.agents)} simulated agents per arm, step budget ${esc(result.rounds)} rounds. The same fleet runs in each arm's own embedded pipeline; agents answer what a correction says (recovery-model.ts).</p>
<section><h2>Arms side by side</h2><table><tr><th scope="col">metric</th>${head}</tr>${rows}<tr><th scope="row">self-heal per rung</th>${rungs}</tr></table></section>
<section><h2>Differences against none</h2>${diffs || '<p>No none arm: no differences.</p>'}</section>
<section><h2>Persistence curves of the same injected agents</h2><table><tr>${head}</tr>${curves}</table></section>
</body></html>
`;
}
