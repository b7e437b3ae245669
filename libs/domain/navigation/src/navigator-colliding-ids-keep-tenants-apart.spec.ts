// The replay navigator keys maps and localizers per tenant and task (and agent) in the one composite-key
// encoding: a tenant whose ids collide with another's under `tenant:task` joining never gets its map.
import type { StepEvent, TaskSpec } from '@wayfinder/contracts';
import { PROFILES } from '@wayfinder/detection';
import { createNavigator } from './create-navigator';

const task = (tenantId: string, taskId: string): TaskSpec => ({
  schema: 'wayfinder.task.v1', eventId: `task-${tenantId}-${taskId}`, tenantId, ts: '2026-01-01T00:00:00Z', taskId, goal: 'Collect sources, then write the report',
  milestones: [
    { id: 'collect', description: 'collect sources', dependsOn: [] },
    { id: 'write', description: 'write the report', dependsOn: ['collect'] },
  ],
});

const done = (tenantId: string, taskId: string): StepEvent => ({
  schema: 'wayfinder.step.v1', eventId: `s-${tenantId}-${taskId}`, tenantId, agentId: 'agent:1', taskId, runId: 'r', seq: 0, ts: '2026-01-01T00:00:00Z', kind: 'milestone', milestone: { id: 'collect', status: 'done' },
});

describe('the replay navigator with colliding composite ids', () => {
  it('never localizes a tenant’s steps on the map of a tenant whose ids join to the same string', () => {
    const navigator = createNavigator({ policy: PROFILES.balanced, tasks: [task('acme:eu', 'report')] });
    expect(navigator.mapOf('acme', 'eu:report')).toBeUndefined();
    expect(navigator.mapOf('acme:eu', 'report')).toBeDefined();
    expect(navigator.onStep(done('acme', 'eu:report')).localized).toBeUndefined();
    expect(navigator.onStep(done('acme:eu', 'report')).localized?.completed).toEqual(['collect']);
  });
});
