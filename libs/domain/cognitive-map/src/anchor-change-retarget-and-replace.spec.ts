/**
 * Dynamic anchors: feedback or a plan that retargets or replaces an anchor is a proposal; an accepted one
 * is the map's next version, the goal board shows the change and its reason, and progress is measured
 * against the new target (the anchor keeps its id).
 */
import type { StepEvent } from '@wayfinder/contracts';
import { applyAnchorChange, proposeAnchorChanges } from './anchor-change';
import { updateAnchorProgress, anchorCounts, emptyProgress } from './anchor-progress';
import { renderGoalBoard } from './rendering';
import { parseTask } from './task-parser';

function mapOf(goal: string) {
  const parsed = parseTask({ schema: 'wayfinder.task.v1', eventId: 't', tenantId: 't1', ts: '2026-01-01T00:00:00.000Z', taskId: 'task1', goal });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}
const base = { schema: 'wayfinder.step.v1' as const, tenantId: 't1', agentId: 'a1', taskId: 'task1', runId: 'r1', ts: '2026-01-01T00:00:05.000Z' };
const feedback = (seq: number, text: string, attributes?: StepEvent['attributes']): StepEvent => ({ ...base, eventId: `e${seq}`, seq, kind: 'feedback', feedback: { text }, ...(attributes && { attributes }) });

describe('anchor-change proposals', () => {
  const map = mapOf('Write a market report that covers at least 5 competitors, citing at least 10 sources');

  it('retargets the competitors anchor from feedback (EN)', () => {
    const [p] = proposeAnchorChanges(map, feedback(3, 'Only 4 competitors have public data: cover 4 competitors instead of 5'));
    expect(p).toMatchObject({ anchorId: map.anchors[0].id, to: { target: 4 }, source: 'feedback', atSeq: 3 });
    expect(p.from.target).toBe(5);
    expect(p.reason).toContain('public data');
  });

  it('replaces the unit when the feedback swaps what is counted (EN)', () => {
    const [p] = proposeAnchorChanges(map, feedback(4, 'Replace competitors with suppliers: cover 5 suppliers'));
    expect(p).toMatchObject({ anchorId: map.anchors[0].id, to: { unit: 'suppliers', target: 5 } });
  });

  it('retargets from Chinese feedback (ZH)', () => {
    const zh = mapOf('撰写市场分析报告，至少覆盖5个竞品，引用不少于10个数据源');
    const [p] = proposeAnchorChanges(zh, feedback(2, '有一家没有公开数据，把竞品数量改为4个竞品'));
    expect(p).toMatchObject({ anchorId: zh.anchors[0].id, to: { target: 4 } });
  });

  it('takes a structured attributes.anchorChange, and ignores feedback that changes nothing', () => {
    const id = map.anchors[1].id;
    expect(proposeAnchorChanges(map, feedback(4, 'fewer sources are fine', { anchorChange: { anchorId: id, target: 6, reason: 'niche market' } }))).toMatchObject([{ anchorId: id, to: { target: 6 }, reason: 'niche market' }]);
    expect(proposeAnchorChanges(map, feedback(5, 'Found 3 competitors so far, good'))).toEqual([]);
    expect(proposeAnchorChanges(map, feedback(6, 'Do not cite Wikipedia'))).toEqual([]);
  });
});

describe('an accepted anchor change', () => {
  const map = mapOf('Write a market report that covers at least 5 competitors');
  const [p] = proposeAnchorChanges(map, feedback(3, 'Cover 4 competitors instead of 5: one has no public data'));
  const next = applyAnchorChange(map, { ...p, acceptedBy: 'user' });

  it('is the next version with the anchor retargeted under the same id, and is applied once', () => {
    expect(next.version).toBe(map.version + 1);
    expect(next.anchors[0]).toMatchObject({ id: map.anchors[0].id, target: 4, unit: 'competitors' });
    expect(next.anchorChanges).toEqual([expect.objectContaining({ proposalId: p.proposalId, acceptedBy: 'user', version: next.version })]);
    expect(applyAnchorChange(next, { ...p, acceptedBy: 'user' })).toBe(next);
  });

  it('shows the change and its reason on the goal board', () => {
    const board = renderGoalBoard(next, { [next.anchors[0].id]: 4 });
    expect(board).toContain('[x] competitors 4/4');
    expect(board).toContain('changed from 5 competitors (confirmed): Cover 4 competitors instead of 5: one has no public data');
  });

  it('measures progress against the new target: 4 competitors found meets it', () => {
    const step: StepEvent = { ...base, eventId: 'o1', seq: 9, kind: 'message', message: { role: 'assistant', text: 'Found 4 competitors: A, B, C, D', type: 'output' } };
    const counts = anchorCounts(updateAnchorProgress(next.anchors, emptyProgress(next.anchors), step));
    expect(counts[next.anchors[0].id]).toBe(4);
    expect(renderGoalBoard(next, counts)).toContain('[x] competitors 4/4');
    expect(renderGoalBoard(map, counts)).toContain('[ ] competitors 4/5');
  });
});
