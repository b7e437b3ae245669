/**
 * P8 (PROJECT-RULES.md): the same tool failing with the same error in run after run of one agent — each
 * sub-agent started afresh hits the failure its predecessors hit — is error_repeat, though history is per run.
 */
import { engineFor, runAll, steps } from './test-support/step-builder';

const MISSING = "Could not convert 'data/f918.py' to Markdown: file not found";
const acrossRuns = (out: ReturnType<typeof runAll>) => out.filter((d) => d.evidence['acrossRuns'] !== undefined);

function subRun(runId: string, question: string, outcome: 'fail' | 'ok' | 'other-error') {
  const s = steps({ runId });
  return [
    s.act('inspect_file_as_text', { file_path: 'data/f918.py', question }),
    outcome === 'ok' ? s.ok('inspect_file_as_text', 'print(42)') : s.fail('inspect_file_as_text', outcome === 'fail' ? MISSING : 'PermissionError: data/f918.py'),
  ];
}

describe('error_repeat across sub-agent runs', () => {
  it('warns when a third run fails the same way, args reworded, naming the tool and the runs', () => {
    const out = runAll(engineFor(), [...subRun('manager', 'none', 'fail'), ...subRun('helper-1', 'full text please', 'fail'), ...subRun('helper-2', 'the complete content', 'fail')]);
    expect(acrossRuns(out)).toEqual([
      expect.objectContaining({ detector: 'error_repeat', level: 'warning', count: 3, runId: 'helper-2', atSeq: 1, evidence: expect.objectContaining({ tool: 'inspect_file_as_text', acrossRuns: 3 }) }),
    ]);
  });

  it('goes critical at the fifth such failure', () => {
    const runs = ['r1', 'r2', 'r3', 'r4', 'r5'].flatMap((r) => subRun(r, `ask ${r}`, 'fail'));
    expect(acrossRuns(runAll(engineFor(), runs)).map((d) => `${d.level}@${d.count}`)).toEqual(['warning@3', 'warning@4', 'critical@5']);
  });
});

describe('error_repeat across runs: not stuck', () => {
  it('is not flagged for the same failure in two runs (a fresh run retrying once)', () => {
    expect(acrossRuns(runAll(engineFor(), [...subRun('r1', 'a', 'fail'), ...subRun('r2', 'b', 'fail')]))).toEqual([]);
  });

  it('is not flagged when a run in between succeeded with the tool (progress ends the streak)', () => {
    const out = runAll(engineFor(), [...subRun('r1', 'a', 'fail'), ...subRun('r2', 'b', 'fail'), ...subRun('r3', 'c', 'ok'), ...subRun('r4', 'd', 'fail'), ...subRun('r5', 'e', 'fail')]);
    expect(acrossRuns(out)).toEqual([]);
  });

  it('is not flagged when the runs fail with different errors', () => {
    expect(acrossRuns(runAll(engineFor(), [...subRun('r1', 'a', 'fail'), ...subRun('r2', 'b', 'other-error'), ...subRun('r3', 'c', 'fail')]))).toEqual([]);
  });

  it('is off in the openclaw profile', () => {
    const out = runAll(engineFor({ profile: 'openclaw' }), ['r1', 'r2', 'r3', 'r4'].flatMap((r) => subRun(r, r, 'fail')));
    expect(acrossRuns(out)).toEqual([]);
  });
});
