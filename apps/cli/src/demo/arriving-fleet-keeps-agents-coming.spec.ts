// `npm start`'s fleet (ArrivingFleet): agents keep arriving one at a time while fewer than maxAlive work,
// each with a task of its own published before its first step, ids never repeating; finished or frozen
// agents leave; it settles only when stopped.
import type { Correction, StepEvent } from '@wayfinder/contracts';
import { ArrivingFleet } from './arriving-fleet';

describe('ArrivingFleet', () => {
  it('keeps agents arriving, bounded in number at work, each task published before its steps', () => {
    const fleet = new ArrivingFleet({ seed: 11, initial: 3, everyRounds: 2, maxAlive: 4, failureRate: 0 });
    expect(fleet.policies().map((p) => p.tenantId)).toEqual(['acme', 'globex', 'initech']);
    const tasks = new Set(fleet.tasks().map((t) => `${t.tenantId}/${t.taskId}`));
    expect(tasks.size).toBe(3);
    expect(fleet.newTasks()).toEqual([]);
    const agents = new Set<string>();
    let steps: StepEvent[] = [];
    for (let round = 0; round < 400; round++) {
      steps = fleet.nextSteps(Date.UTC(2026, 0, 1) + round * 500);
      for (const t of fleet.newTasks()) {
        const key = `${t.tenantId}/${t.taskId}`;
        expect(tasks.has(key)).toBe(false);
        tasks.add(key);
      }
      const stepping = new Set(steps.map((s) => `${s.tenantId}/${s.agentId}`));
      expect(stepping.size).toBeLessThanOrEqual(4);
      for (const s of steps) {
        expect(tasks.has(`${s.tenantId}/${s.taskId}`)).toBe(true);
        agents.add(`${s.tenantId}/${s.agentId}`);
      }
      expect(fleet.settled).toBe(false);
    }
    // Healthy agents (no correction comes here to end a loop) finish and make room: many more arrived than
    // ever worked at once, and none shares an id.
    expect(fleet.arrivals).toBeGreaterThan(10);
    expect(agents.size).toBe(fleet.arrivals);
    expect(new Set([...agents].map((a) => a.split('/')[1])).size).toBe(agents.size);
    fleet.stop();
    expect(fleet.settled).toBe(true);
  });

  it('keeps a frozen agent for a person: resumed, it steps again', () => {
    const fleet = new ArrivingFleet({ seed: 5, initial: 1, everyRounds: 1_000, maxAlive: 1, failureRate: 0 });
    const [task] = fleet.tasks();
    const agentId = task.agentIds![0];
    expect(fleet.nextSteps(0).map((s) => s.agentId)).toEqual([agentId]);
    const freeze = { schema: 'wayfinder.correction.v1', eventId: 'c1', tenantId: task.tenantId, ts: new Date(0).toISOString(), agentId, taskId: task.taskId, runId: null, deviationIds: [], severity: 'critical', atSeq: 1, action: 'freeze', reason: 'r' } as unknown as Correction;
    expect(fleet.applyCorrection(freeze)?.effect).toBe('frozen');
    expect(fleet.nextSteps(1)).toEqual([]);
    expect(fleet.resume('other-tenant', agentId)).toBe(false);
    expect(fleet.resume(task.tenantId, agentId)).toBe(true);
    expect(fleet.nextSteps(2).map((s) => s.agentId)).toEqual([agentId]);
    expect(fleet.resume(task.tenantId, agentId)).toBe(false);
  });
});
