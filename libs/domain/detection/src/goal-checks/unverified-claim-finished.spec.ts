// An agent that says it has finished while a milestone the map can check has no evidence (P9) is a
// warning naming the milestones and what each lacks; with the evidence, or with nothing to check, clean.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

const map = mapOf('Export the orders and write the report', {
  milestones: [
    { id: 'export', description: 'Export the orders', dependsOn: [], validator: { type: 'jsonField', path: 'rows', exists: true } },
    { id: 'report', description: 'Write the report', dependsOn: ['export'], validator: { type: 'regex', pattern: '^# Report', flags: 'm', on: 'message' } },
  ],
});

describe('unverified_claim: a claim of being finished', () => {
  it('names the milestones without evidence (EN, ZH)', () => {
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('export_orders', {}), s.result('export_orders', true, '{"rows": 120}'), s.say('The task is complete.')]);
    expect(out.map((d) => [d.detector, d.level])).toEqual([['unverified_claim', 'warning']]);
    expect(out[0].evidence).toMatchObject({ claim: 'finished', milestones: ['report'], missing: 'report: an output matching /^# Report/m' });
    const t = agentSteps('a2');
    expect(run(goalEngine(map), [t.say('任务已完成。')]).map((d) => d.evidence['milestones'])).toEqual([['export', 'report']]);
  });

  it('is clean with the evidence of every milestone, and with a map it cannot check', () => {
    const s = agentSteps();
    const steps = [s.act('export_orders', {}), s.result('export_orders', true, '{"rows": 120}'), s.output('# Report\n120 orders exported.'), s.say('All tasks are done.')];
    expect(run(goalEngine(map), steps)).toEqual([]);
    const t = agentSteps('a2');
    expect(run(goalEngine(mapOf('Export the orders -> write the report')), [t.say('The task is complete.')])).toEqual([]);
  });

  it('is not a claim as a condition ("once the task is complete")', () => {
    const s = agentSteps();
    expect(run(goalEngine(map), [s.say('Once the task is complete, I will send the report.')])).toEqual([]);
  });
});
