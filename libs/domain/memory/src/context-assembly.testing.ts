/** Builders for the context-assembly specs. Test-only; not exported from the library's index. */
import { createCharter, appendFeedback, type Charter } from './charter';
import type { OperationLogEntry, RelevantMemory } from './context-assembly';

export function reportCharter(): Charter {
  return appendFeedback(
    createCharter('Write a market report on 5 competitors of Acme. Use public data.', [
      { text: 'Only use public sources' },
      { text: 'Never contact the competitors' },
    ]),
    'Do not cite Wikipedia',
  );
}

export const STATE = 'STATE\nStage 2/4: m2 Collect pricing\nNext: fetch pricing for vendor C';
export const GOAL_BOARD = 'GOAL BOARD\ncompetitors 3/5';

export function memories(): RelevantMemory[] {
  return [
    { id: 'mem-low', kind: 'conclusion', text: 'Vendor A charges per seat', milestoneId: 'm2', score: 0.41 },
    { id: 'mem-other', kind: 'conclusion', text: 'Competitor list came from the 2024 survey', milestoneId: 'm1', score: 0.99 },
    { id: 'mem-pref', kind: 'preference', text: 'The user prefers tables', score: 0.5 },
    { id: 'mem-high', kind: 'reference', text: 'Pricing sheet: s3://acme/pricing.csv', milestoneId: 'm2', score: 0.9 },
  ];
}

/** m1 (behind the agent) and m2 (current), with raw outputs of `rawChars` characters each. */
export function log(rawChars = 200, m2Entries = 6): OperationLogEntry[] {
  const raw = (label: string) => `${label} ${'x'.repeat(rawChars)}`;
  const entries: OperationLogEntry[] = [
    { seq: 1, milestoneId: 'm1', kind: 'action', text: 'web_search {"q":"acme competitors"}' },
    { seq: 2, milestoneId: 'm1', kind: 'observation', text: raw('search results m1'), conclusion: 'Competitors: A, B, C, D, E' },
    { seq: 3, milestoneId: 'm1', kind: 'observation', text: raw('raw page m1') },
    { seq: 4, milestoneId: 'm1', kind: 'feedback', text: 'Do not cite Wikipedia' },
    { seq: 5, milestoneId: 'm1', kind: 'milestone', text: 'm1 done' },
  ];
  for (let i = 0; i < m2Entries; i++) {
    const seq = 6 + i;
    entries.push({ seq, milestoneId: 'm2', kind: i % 2 === 0 ? 'action' : 'observation', text: raw(`m2 step ${seq}`) });
  }
  entries.push({ seq: 6 + m2Entries, milestoneId: 'm2', kind: 'observation', text: raw('pricing page'), conclusion: 'Vendor B costs $12/seat' });
  return entries;
}
