// An agent that says it is blocked (an assistant message, or a milestone failed with that reason) is
// checked against its attempts (P9): without a failed call at the impasse (it never tried, or its last call
// succeeded) the claim is a warning, a hint to try another way; the second unbacked claim is critical.
// A blocked agent whose last calls failed with the blocking error is clean.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

const map = mapOf('Download the quarterly report and summarise it');

describe('unverified_claim: a claim of being blocked', () => {
  it('with no tool call at all is a warning naming the missing attempt, critical when said again', () => {
    const s = agentSteps();
    const out = run(goalEngine(map), [s.say("I'm blocked: I don't have access to the reports server."), s.say('I cannot proceed without access.')]);
    expect(out.map((d) => [d.detector, d.level, d.count])).toEqual([
      ['unverified_claim', 'warning', 1],
      ['unverified_claim', 'critical', 2],
    ]);
    expect(out[0].evidence).toMatchObject({ claim: 'blocked', lastOutcome: 'none', failedAttempts: 0, missing: '1 failed call at the impasse (no call failed in the run)' });
    expect(out[0].message).toContain('no call failed in the run');
  });

  it('after calls that succeeded is a warning (no call failed; or the last call succeeded after a failure)', () => {
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('http_get', { url: 'https://reports/q3.pdf' }), s.result('http_get', true, '%PDF-1.7 ... 42 pages'), s.say('Unable to proceed: the report cannot be read.')]);
    expect(out.map((d) => [d.detector, d.level])).toEqual([['unverified_claim', 'warning']]);
    expect(out[0].evidence).toMatchObject({ failedAttempts: 0, requiredAttempts: 1 });
    const t = agentSteps('a2');
    const retried = [t.act('http_get', { url: 'x' }), t.result('http_get', false, '503 Service Unavailable'), t.act('http_get', { url: 'x' }), t.result('http_get', true, '%PDF-1.7'), t.say('I cannot proceed.')];
    const [claim] = run(goalEngine(map), retried);
    expect(claim.evidence).toMatchObject({ lastOutcome: 'ok', failedAttempts: 0 });
    expect(claim.message).toContain('the last call succeeded');
  });

  it('is clean when the last calls failed with the blocking error (EN, ZH, FR)', () => {
    const s = agentSteps();
    const steps = [s.act('http_get', { url: 'https://reports/q3.pdf' }), s.result('http_get', false, '403 Forbidden'), s.act('http_get', { url: 'https://mirror/q3.pdf' }), s.result('http_get', false, '403 Forbidden')];
    expect(run(goalEngine(map), [...steps, s.say("I'm blocked: every source answers 403 Forbidden. I need credentials.")])).toEqual([]);
    const t = agentSteps('a2');
    expect(run(goalEngine(map), [t.act('http_get', { url: 'x' }), t.result('http_get', false, '权限不足'), t.say('权限不足，无法继续。')])).toEqual([]);
    const u = agentSteps('a3');
    expect(run(goalEngine(map), [u.act('http_get', { url: 'x' }), u.result('http_get', false, 'accès refusé'), u.say('Je suis bloqué : accès refusé.')])).toEqual([]);
  });

  it('reads the claim in other languages, and not a condition, a thought or a user', () => {
    const s = agentSteps();
    expect(run(goalEngine(map), [s.say('我被卡住了，无法继续。')]).map((d) => d.detector)).toEqual(['unverified_claim']);
    const t = agentSteps('a2');
    expect(run(goalEngine(map), [t.say('No puedo continuar sin acceso.')]).map((d) => d.detector)).toEqual(['unverified_claim']);
    const u = agentSteps('a3');
    const quiet = [
      u.say('If I cannot proceed with the download, I will ask for credentials.'),
      { ...u.say("I'm blocked, maybe? Let me look again."), message: { role: 'assistant' as const, text: "I'm blocked, maybe?", type: 'thought' as const } },
      { ...u.say(''), message: { role: 'user' as const, text: 'I am blocked on my side, take your time.' } },
      u.say('I am not blocked: the report is downloading.'),
      u.say('The default config cannot proceed without a cache, so I will switch to the fast path.'),
    ];
    expect(run(goalEngine(map), quiet)).toEqual([]);
  });

  it('a milestone failed with a blocked reason is the same claim; other failures are the verification\'s', () => {
    const s = agentSteps();
    const id = map.milestones[0].id;
    const out = run(goalEngine(map), [s.act('ls', {}), s.result('ls', true, 'a b'), s.milestone(id, 'failed', 'I cannot continue: no access'), s.milestone(id, 'failed', 'checksum mismatch')]);
    expect(out.map((d) => [d.detector, d.evidence['milestoneId']])).toEqual([['unverified_claim', id]]);
  });

  it('keeps its count and the run\'s failures across an export and import of the agent\'s state', () => {
    const s = agentSteps();
    const first = goalEngine(map);
    expect(run(first, [s.say('I cannot continue.'), s.act('http_get', { url: 'x' }), s.result('http_get', false, '403 Forbidden')]).map((d) => d.level)).toEqual(['warning']);
    const doc = first.exportAgentState('t1', 'a1');
    expect(doc).toBeDefined();
    const second = goalEngine(map);
    second.importAgentState('t1', 'a1', doc as Uint8Array);
    // Backed now (the failure came through the import): clean; then a success, and the claim is the second.
    expect(run(second, [s.say('I am blocked: 403 Forbidden.')])).toEqual([]);
    const out = run(second, [s.act('http_get', { url: 'y' }), s.result('http_get', true, 'ok'), s.say('I am blocked.')]);
    expect(out.map((d) => [d.level, d.count])).toEqual([['critical', 2]]);
  });

  it('strict asks for two failed calls at the impasse', () => {
    const s = agentSteps();
    const steps = [s.act('http_get', { url: 'x' }), s.result('http_get', false, '403 Forbidden'), s.say('I am unable to continue.')];
    expect(run(goalEngine(map, { profile: 'strict' }), steps).map((d) => [d.detector, d.evidence['requiredAttempts']])).toEqual([['unverified_claim', 2]]);
  });
});
