/**
 * The balanced state (sketches of messages and near-duplicate calls, several runs) survives export and
 * import bit for bit, and the importing engine goes on exactly as the exporting one would have.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { decodeAgentState } from './state/codec';
import { engineFor, runAll, steps } from './test-support/step-builder';

function scenario(): { head: StepEvent[]; tail: StepEvent[] } {
  const main = steps({ runId: 'r1' });
  const sub = steps({ runId: 'r2' });
  const search = (s: ReturnType<typeof steps>, q: string) => [s.act('web_search', { query: q }), s.ok('web_search', `results for ACME revenue: annual report, quarterly archive`)];
  const head = [
    ...search(main, 'ACME latest quarterly revenue'),
    main.say('Looking at the revenue results now.'),
    ...search(sub, 'open issue 42 in the tracker'),
    ...search(main, 'latest quarterly revenue of ACME'),
    main.act('read_file', { path: '/tmp/report.txt' }),
    main.fail('read_file', 'ENOENT: no such file /tmp/report.txt'),
    main.say('Looking at the revenue results now.'),
  ];
  const tail = [
    ...search(main, 'ACME latest quarterly revenue figures'),
    main.say('Looking at the revenue results now.'),
    main.act('read_file', { path: '/tmp/report.txt' }),
    main.fail('read_file', 'ENOENT: no such file /tmp/report.txt'),
    ...search(sub, 'open issue 42 in the tracker'),
    ...search(main, 'ACME latest quarterly revenue report'),
  ];
  return { head, tail };
}

describe('balanced agent state round trip', () => {
  it('exports the same bytes after an import and continues with the same deviations', () => {
    const { head, tail } = scenario();
    const a = engineFor();
    runAll(a, head);
    const state = a.exportAgentState('t1', 'a1') as Uint8Array;
    const runs = [...decodeAgentState('t1', 'a1', state).agent.runs()];
    expect(runs.map(([k]) => k)).toEqual(['r2', 'r1']);
    const [, r1] = runs[1];
    expect(r1.hasVectors && r1.data.subarray(r1.vectorsOffset).some((word) => word !== 0)).toBe(true);

    const b = engineFor();
    b.importAgentState('t1', 'a1', state);
    expect(b.exportAgentState('t1', 'a1')).toEqual(state);
    const fromB = runAll(b, tail);
    const fromA = runAll(a, tail);
    expect(fromB).toEqual(fromA);
    expect(fromA.some((d) => d.detector === 'near_duplicate_calls')).toBe(true);
    expect(b.exportAgentState('t1', 'a1')).toEqual(a.exportAgentState('t1', 'a1'));
  });
});
