import type { CognitiveMap } from '@wayfinder/contracts';
import { renderGoalBoard, renderState } from './rendering';
import { parseTask } from './task-parser';
import { task } from './testing/step-builders';

const map: CognitiveMap = (() => {
  const r = parseTask(task('1. Find at least 5 competitors\n2. Compare them in no more than 8 rounds\n3. Write the report. Do not use paid sources.'));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();
const [comp, rounds] = map.anchors;

describe('renderGoalBoard', () => {
  it('shows each anchor with its count and status, and the numbered constraints', () => {
    const board = renderGoalBoard(map, { [comp.id]: 3, [rounds.id]: 9 });
    expect(board.split('\n')).toEqual([
      `GOAL: ${map.goal.replace(/\s+/g, ' ')}`,
      'ANCHORS:',
      '  [ ] competitors 3/5 (at least, hard)',
      '  [!] rounds 9/8 (at most, hard, EXCEEDED)',
      'CONSTRAINTS:',
      '  C1. Do not use paid sources',
    ]);
  });

  it('marks met anchors and defaults missing counts to 0', () => {
    const board = renderGoalBoard(map, { [comp.id]: 5 });
    expect(board).toContain('[x] competitors 5/5');
    expect(board).toContain('[x] rounds 0/8');
  });
});

describe('renderState', () => {
  const [m1, m2, m3] = map.milestones;

  it('shows stage k/N, completed milestones, conclusion, next action, references and the last failure', () => {
    const text = renderState({
      map,
      position: { milestoneId: m2.id, completed: [m1.id], progress: 1 / 3, confidence: 1, method: 'signal' },
      conclusion: 'Found A, B, C, D, E',
      references: ['notes/competitors.md'],
      lastFailure: 'looped on the same search',
    });
    expect(text.split('\n')).toEqual([
      'STATE',
      `stage: 2/3 — ${m2.description}`,
      'completed:',
      `  - ${m1.id}: ${m1.description}`,
      'current conclusion: Found A, B, C, D, E',
      `next action: work on ${m2.id}: ${m2.description}`,
      'references to keep:',
      '  - notes/competitors.md',
      'last attempt failed: looped on the same search',
    ]);
  });

  it('says when everything is done and uses an explicit next action', () => {
    const text = renderState({
      map,
      position: { milestoneId: null, completed: [m1.id, m2.id, m3.id], progress: 1, confidence: 1, method: 'signal' },
      nextAction: 'send the report',
    });
    expect(text).toContain('stage: 3/3 — all milestones completed');
    expect(text).toContain('next action: send the report');
    expect(text).toContain('current conclusion: none yet');
  });
});
