/** The `--format table` rendering of `replay`: one fixed-width row per deviation, correction or escalation. */
import type { Correction, Deviation, Escalation } from '@wayfinder/contracts';

const COLUMNS: Array<[title: string, width: number]> = [
  ['SEQ', 6],
  ['AGENT', 18],
  ['RUN', 18],
  ['KIND', 10],
  ['WHAT', 26],
  ['LEVEL', 9],
  ['COUNT', 6],
  ['FROM', 6],
];

export function tableHeader(): string {
  return COLUMNS.map(([title, width]) => title.padEnd(width)).join(' ') + 'MESSAGE';
}

export function deviationRow(d: Deviation): string {
  return row([d.atSeq, d.agentId, d.runId ?? '-', 'deviation', d.detector, d.level, d.count, d.loopStartSeq], d.message);
}

export function correctionRow(c: Correction): string {
  return row([c.atSeq, c.agentId, c.runId ?? '-', 'correction', c.action, c.severity, '', ''], c.reason);
}

export function escalationRow(e: Escalation): string {
  return row(['', e.agentId, e.runId ?? '-', 'escalation', `${e.deviations.length} deviations`, 'critical', '', e.loopStartSeq ?? ''], e.reason);
}

function row(cells: Array<string | number>, message: string): string {
  const fixed = cells.map((cell, i) => fit(String(cell), COLUMNS[i][1])).join(' ');
  return fixed + oneLine(message, 160);
}

function fit(text: string, width: number): string {
  return text.length > width ? text.slice(0, width - 1) + '…' : text.padEnd(width);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}
