/**
 * The persistence curve (DESIGN §9) as a self-contained SVG string: no scripts, fonts, styles or images
 * from elsewhere, so a report, a dashboard page or a file on disk shows it as is. Consistency over the
 * trajectory's steps (the moving window solid, the running share dashed), deviations marked red below the
 * curve, corrections as labelled blue rules, milestones as green ticks at the top.
 */
import type { PersistencePoint } from './goal-persistence';

export interface CurveSvgOptions {
  title?: string;
  width?: number;
  height?: number;
}

const PAD = { left: 40, right: 12, top: 28, bottom: 30 };
const RUNG_LETTER: Record<string, string> = { hint: 'H', rollback: 'R', replan: 'P', freeze: 'F' };

export function persistenceCurveSvg(curve: readonly PersistencePoint[], options: CurveSvgOptions = {}): string {
  const width = options.width ?? 640;
  const height = options.height ?? 220;
  const title = options.title ?? 'Persistence curve';
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const last = curve.length > 0 ? curve[curve.length - 1].index : 0;
  const x = (index: number) => PAD.left + (last === 0 ? plotW / 2 : (index / last) * plotW);
  const y = (share: number) => PAD.top + (1 - share) * plotH;
  const n = (v: number) => v.toFixed(1);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(title)}">`);
  parts.push(`<title>${esc(title)}</title>`);
  parts.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${PAD.left}" y="16" font-family="sans-serif" font-size="12" fill="#1f2933">${esc(title)}</text>`);
  for (const share of [0, 0.5, 1]) {
    parts.push(`<line x1="${PAD.left}" x2="${width - PAD.right}" y1="${n(y(share))}" y2="${n(y(share))}" stroke="#d9dee3" stroke-width="1"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${n(y(share) + 4)}" text-anchor="end" font-family="sans-serif" font-size="10" fill="#52606d">${share}</text>`);
  }
  parts.push(`<text x="${PAD.left + plotW / 2}" y="${height - 6}" text-anchor="middle" font-family="sans-serif" font-size="10" fill="#52606d">step (0–${last}) · consistency: solid = last steps, dashed = so far</text>`);
  if (curve.length === 0) {
    parts.push(`<text x="${PAD.left + plotW / 2}" y="${PAD.top + plotH / 2}" text-anchor="middle" font-family="sans-serif" font-size="12" fill="#52606d">no judged steps</text>`);
    parts.push('</svg>');
    return parts.join('');
  }
  for (const p of curve) {
    if (p.milestone !== undefined) {
      parts.push(`<line x1="${n(x(p.index))}" x2="${n(x(p.index))}" y1="${PAD.top}" y2="${PAD.top + 8}" stroke="#2f855a" stroke-width="2"><title>milestone ${esc(p.milestone)} at step ${p.index}</title></line>`);
    }
    if (p.corrections !== undefined) {
      const label = p.corrections.map((c) => RUNG_LETTER[c] ?? '?').join('');
      parts.push(`<line x1="${n(x(p.index))}" x2="${n(x(p.index))}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#2b6cb0" stroke-width="1" stroke-dasharray="2 2"><title>${esc(p.corrections.join(', '))} at step ${p.index}</title></line>`);
      parts.push(`<text x="${n(x(p.index) + 2)}" y="${PAD.top + 18}" font-family="sans-serif" font-size="10" fill="#2b6cb0">${label}</text>`);
    }
  }
  const line = (pick: (p: PersistencePoint) => number) => curve.map((p) => `${n(x(p.index))},${n(y(pick(p)))}`).join(' ');
  parts.push(`<polyline fill="none" stroke="#7b8794" stroke-width="1" stroke-dasharray="4 3" points="${line((p) => p.consistency)}"/>`);
  parts.push(`<polyline fill="none" stroke="#1f2933" stroke-width="1.5" points="${line((p) => p.window)}"/>`);
  for (const p of curve) {
    if (p.deviations !== undefined) {
      parts.push(`<circle cx="${n(x(p.index))}" cy="${n(y(p.window))}" r="3.5" fill="#c53030"><title>${esc(p.deviations.join(', '))} at step ${p.index}</title></circle>`);
    }
  }
  parts.push(
    `<g font-family="sans-serif" font-size="10"><circle cx="${width - 190}" cy="12" r="3.5" fill="#c53030"/><text x="${width - 183}" y="15" fill="#1f2933">deviation</text>` +
      `<line x1="${width - 128}" x2="${width - 128}" y1="6" y2="18" stroke="#2b6cb0" stroke-dasharray="2 2"/><text x="${width - 123}" y="15" fill="#1f2933">correction</text>` +
      `<line x1="${width - 62}" x2="${width - 62}" y1="6" y2="14" stroke="#2f855a" stroke-width="2"/><text x="${width - 57}" y="15" fill="#1f2933">milestone</text></g>`,
  );
  parts.push('</svg>');
  return parts.join('');
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
