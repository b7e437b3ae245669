import type { StepEvent, TaskSpec } from '@wayfinder/contracts';
import { PROFILES } from '@wayfinder/detection';
import { createNavigator } from './create-navigator';
import type { NavigationResult } from './navigator';

const TASK: TaskSpec = {
  schema: 'wayfinder.task.v1',
  eventId: 'task-1',
  tenantId: 'acme',
  ts: '2026-01-01T00:00:00Z',
  taskId: 'task-1',
  goal: 'Collect sources about solar panels, then write the report',
  milestones: [
    { id: 'collect', description: 'collect sources about solar panels', dependsOn: [] },
    { id: 'write', description: 'write the report', dependsOn: ['collect'] },
  ],
};

// A search failing the same way again and again: a failure repeated is evidence from the first repeat (P1).
function steps(): StepEvent[] {
  const base = { schema: 'wayfinder.step.v1' as const, tenantId: 'acme', agentId: 'agent-1', taskId: 'task-1', runId: 'run-1' };
  const ts = (seq: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();
  const out: StepEvent[] = [{ ...base, eventId: 'e0', seq: 0, ts: ts(0), kind: 'milestone', milestone: { id: 'collect', status: 'done' } }];
  for (let i = 0; i < 30; i++) {
    const seq = 1 + 2 * i;
    out.push({ ...base, eventId: `e${seq}`, seq, ts: ts(seq), kind: 'action', action: { tool: 'search', args: { query: 'solar panel report template' } } });
    out.push({ ...base, eventId: `e${seq + 1}`, seq: seq + 1, ts: ts(seq + 1), kind: 'observation', observation: { tool: 'search', ok: false, error: 'No results.' } });
  }
  return out;
}

function run(): NavigationResult[] {
  const navigator = createNavigator({ policy: PROFILES.balanced, tasks: [TASK] });
  return steps().map((s) => navigator.onStep(s));
}

describe('createNavigator: a loop after a verified milestone', () => {
  const results = run();
  const deviations = results.flatMap((r) => r.deviations);
  const corrections = results.flatMap((r) => r.corrections);

  it('localizes on the task map: the milestone signal completes "collect"', () => {
    expect(results[0].localized).toMatchObject({ completed: ['collect'], milestoneId: 'write' });
    expect(results.at(-1)?.localized?.completed).toEqual(['collect']);
  });

  it('detects the loop and climbs the ladder, rolling back to the verified milestone', () => {
    expect(deviations.map((d) => d.detector)).toContain('generic_repeat');
    expect(corrections[0].action).toBe('hint');
    const rollback = corrections.find((c) => c.action === 'rollback');
    expect(rollback).toMatchObject({ rollback: { milestoneId: 'collect', discardAfterSeq: 0 } });
  });

  it('stamps corrections with the time of the step that caused them, so a replay is reproducible', () => {
    const stepTime = new Map(steps().map((s) => [s.seq, s.ts]));
    for (const c of corrections) expect(Date.parse(c.ts)).toBe(Date.parse(stepTime.get(c.atSeq) as string));
    expect(run()).toEqual(results);
  });

  it('runs without the ladder when corrections are off', () => {
    const navigator = createNavigator({ policy: PROFILES.balanced, tasks: [TASK], corrections: false });
    const quiet = steps().map((s) => navigator.onStep(s));
    expect(quiet.flatMap((r) => r.deviations)).toEqual(deviations);
    expect(quiet.flatMap((r) => r.corrections)).toEqual([]);
  });

  it('rejects a task whose map cannot be built, naming the task', () => {
    const cyclic: TaskSpec = {
      ...TASK,
      taskId: 'task-cyclic',
      milestones: [
        { id: 'a', description: 'first', dependsOn: ['b'] },
        { id: 'b', description: 'second', dependsOn: ['a'] },
      ],
    };
    expect(() => createNavigator({ policy: PROFILES.balanced, tasks: [cyclic] })).toThrow(/^task task-cyclic: /);
  });
});
