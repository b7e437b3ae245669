// Dynamic anchors in process: feedback proposing a new target is a proposal; a confirmation (what the
// gateway publishes for POST /v1/agents/{id}/anchors/{anchorId}) or the policy's autoAccept gives the map
// its next version, the agent keeps its position, and the goal board measures the new target.
import { ANCHOR_CHANGE_SCHEMA, type StepEvent, type TaskSpec } from '@wayfinder/contracts';
import { renderGoalBoard } from '@wayfinder/cognitive-map';
import { resolvePolicy } from '@wayfinder/detection';
import { createNavigator } from './create-navigator';

const TASK: TaskSpec = {
  schema: 'wayfinder.task.v1',
  eventId: 'task-1',
  tenantId: 'acme',
  ts: '2026-01-01T00:00:00Z',
  taskId: 'task-1',
  goal: 'Collect pricing for at least 5 competitors, then write the market report',
};
const base = { schema: 'wayfinder.step.v1' as const, tenantId: 'acme', agentId: 'agent-1', taskId: 'task-1', runId: 'run-1' };
const ts = (seq: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();

const FEEDBACK: StepEvent = { ...base, eventId: 'e1', seq: 1, ts: ts(1), kind: 'feedback', feedback: { text: 'One competitor has no public data: cover 4 competitors instead of 5' } };

describe('Navigator: an anchor change', () => {
  it('waits for a confirmation, then versions the map, keeps the position and shows the change', () => {
    const navigator = createNavigator({ policy: resolvePolicy({}), tasks: [TASK] });
    const first = navigator.mapOf('acme', 'task-1')!;
    const done = navigator.onStep({ ...base, eventId: 'd0', seq: 0, ts: ts(0), kind: 'milestone', milestone: { id: first.milestones[0].id, status: 'done' } });
    expect(done.localized?.completed).toEqual([first.milestones[0].id]);
    const proposed = navigator.onStep(FEEDBACK);
    expect(proposed.anchorChanges?.map((c) => [c.kind, c.to.target])).toEqual([['proposed', 4]]);
    expect(navigator.mapOf('acme', 'task-1')?.version).toBe(1);

    const proposal = proposed.anchorChanges![0];
    const applied = navigator.onAnchorChange({ ...proposal, schema: ANCHOR_CHANGE_SCHEMA, eventId: 'decision-1', kind: 'confirmed', source: 'api', to: {}, reason: 'approved by the analyst' });
    expect(applied.map((c) => c.kind)).toEqual(['confirmed']);
    const map = navigator.mapOf('acme', 'task-1')!;
    expect(map.version).toBe(2);
    expect(map.anchors[0].target).toBe(4);
    expect(renderGoalBoard(map, { [map.anchors[0].id]: 4 })).toContain('changed from 5 competitors (confirmed): approved by the analyst');
    // The verified milestone survives the new version.
    const next = navigator.onStep({ ...base, eventId: 'e2', seq: 2, ts: ts(2), kind: 'message', message: { role: 'assistant', text: 'Found 4 competitors: A, B, C, D', type: 'output' } });
    expect(next.localized?.completed).toEqual([first.milestones[0].id]);
  });

  it('is not applied when rejected', () => {
    const navigator = createNavigator({ policy: resolvePolicy({}), tasks: [TASK] });
    const proposal = navigator.onStep(FEEDBACK).anchorChanges![0];
    expect(navigator.onAnchorChange({ ...proposal, eventId: 'no', kind: 'rejected', source: 'api', reason: 'keep 5' }).map((c) => c.kind)).toEqual(['rejected']);
    expect(navigator.onAnchorChange({ ...proposal, eventId: 'late', kind: 'confirmed', source: 'api', to: {}, reason: 'too late' })).toEqual([]);
    expect(navigator.mapOf('acme', 'task-1')?.anchors[0].target).toBe(5);
  });

  it('applies at once with anchors.autoAccept, accepted by policy', () => {
    const navigator = createNavigator({ policy: resolvePolicy({ anchors: { autoAccept: true } }), tasks: [TASK] });
    const result = navigator.onStep(FEEDBACK);
    expect(result.anchorChanges?.map((c) => [c.kind, c.source])).toEqual([['proposed', 'feedback'], ['confirmed', 'policy']]);
    const map = navigator.mapOf('acme', 'task-1')!;
    expect([map.version, map.anchors[0].target, map.anchorChanges?.[0].acceptedBy]).toEqual([2, 4, 'policy']);
  });

  it('ignores a decision from another tenant', () => {
    const navigator = createNavigator({ policy: resolvePolicy({}), tasks: [TASK, { ...TASK, tenantId: 'other' }] });
    const proposal = navigator.onStep(FEEDBACK).anchorChanges![0];
    expect(navigator.onAnchorChange({ ...proposal, tenantId: 'other', eventId: 'x', kind: 'confirmed', source: 'api', to: {}, reason: 'sneaky' })).toEqual([]);
    expect(navigator.mapOf('other', 'task-1')?.version).toBe(1);
    expect(navigator.mapOf('acme', 'task-1')?.version).toBe(1);
  });
});
