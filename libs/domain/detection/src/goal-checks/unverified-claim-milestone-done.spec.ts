// A milestone claimed done is checked by its validator against what the tools and outputs showed (P9):
// no evidence is a warning naming what is missing, the same claim again is critical, and a validator that
// fails on every claim counts as a failed verification. Backed by the evidence, the claim is clean.
import type { Validator } from '@wayfinder/contracts';
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

const testsPass: Validator = { type: 'all', of: [{ type: 'marker' }, { type: 'regex', pattern: '\\d+ passed', on: 'observation' }] };
const map = mapOf('Fix the failing test, then publish the package', {
  milestones: [
    { id: 'fix', description: 'Fix the failing test', dependsOn: [], validator: testsPass },
    { id: 'publish', description: 'Publish the package', dependsOn: ['fix'], validator: { type: 'toolSucceeded', tool: 'npm_publish' } },
    { id: 'notes', description: 'Write release notes', dependsOn: [], validator: { type: 'marker' } },
  ],
});

/** A call of `tool` and its outcome. */
function call(s: ReturnType<typeof agentSteps>, tool: string, ok: boolean, text: string) {
  return [s.act(tool, { cmd: tool }), s.result(tool, ok, text)];
}

describe('unverified_claim: a milestone claimed done', () => {
  it('without the validator evidence is a warning naming what is missing, critical when claimed again', () => {
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('edit_file', { path: 'src/sum.ts' }), s.milestone('fix', 'done'), s.say('Fixed it.'), s.milestone('fix', 'done')]);
    const claims = out.filter((d) => d.detector === 'unverified_claim');
    expect(claims.map((d) => [d.level, d.count, d.atSeq])).toEqual([
      ['warning', 1, 1],
      ['critical', 2, 3],
    ]);
    expect(claims[0].evidence).toMatchObject({ claim: 'done', milestoneId: 'fix', missing: 'a tool result matching /\\d+ passed/' });
    expect(claims[0].message).toContain('a tool result matching /\\d+ passed/');
  });

  it('contradicted when the tool result says otherwise (the tests ran and failed)', () => {
    const s = agentSteps();
    const out = run(goalEngine(map), [...call(s, 'run_tests', true, '3 failed, 0 passing'), s.milestone('publish', 'done')]);
    expect(out.map((d) => [d.detector, d.evidence['missing']])).toEqual([['unverified_claim', 'a successful call of npm_publish']]);
  });

  it('is clean when the evidence is there: the tests passed, the publish call succeeded', () => {
    const s = agentSteps();
    const steps = [...call(s, 'run_tests', true, '12 passed in 0.4s'), s.milestone('fix', 'done'), ...call(s, 'npm_publish', true, '+ pkg@1.0.1'), s.milestone('publish', 'done')];
    expect(run(goalEngine(map), steps)).toEqual([]);
  });

  it('cannot check a marker-only validator (the claim is no evidence for itself), nor a milestone the map lacks', () => {
    const s = agentSteps();
    expect(run(goalEngine(map), [s.milestone('notes', 'done'), s.milestone('elsewhere', 'done')])).toEqual([]);
  });

  it('a validator failing on every claim is a failed verification: verification_failed_repeat at the third', () => {
    const s = agentSteps();
    const out = run(goalEngine(map), [s.milestone('fix', 'done'), s.act('edit_file', { path: 'a.ts' }), s.milestone('fix', 'done'), s.act('edit_file', { path: 'b.ts' }), s.milestone('fix', 'done')]);
    expect(out.map((d) => [d.detector, d.level, d.count])).toEqual([
      ['unverified_claim', 'warning', 1],
      ['unverified_claim', 'critical', 2],
      ['unverified_claim', 'critical', 3],
      ['verification_failed_repeat', 'critical', 3],
    ]);
    expect(out[3].message).toContain('claimed done; missing a tool result matching');
    expect(out[3].evidence).toMatchObject({ milestone: 'fix', failures: 3 });
    expect(String(out[3].evidence['failingValidator'])).toMatch(/^a tool result matching/);
  });

  it('is off in the openclaw profile', () => {
    const s = agentSteps();
    expect(run(goalEngine(map, { profile: 'openclaw' }), [s.milestone('fix', 'done'), s.milestone('fix', 'done')])).toEqual([]);
  });
});
