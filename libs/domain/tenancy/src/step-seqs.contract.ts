/**
 * The StepSeqs contract: every adapter (in memory, Redis) passes it. `make` returns empty seqs of their
 * own, remembering `seenPerRun` deliveries per run.
 */
import type { StepRun, StepSeqs } from './step-seqs';

export function stepSeqsContract(make: (seenPerRun: number) => StepSeqs): void {
  const run = (tenantId: string, agentId: string, runId: string): StepRun => ({ tenantId, agentId, runId });

  it('numbers a run 1, 2, 3… and each run, agent and tenant on its own', async () => {
    const seqs = make(8);
    const a = run('t1', 'agent', 'run-1');
    expect([await seqs.next(a), await seqs.next(a), await seqs.next(a)]).toEqual([1, 2, 3]);
    expect(await seqs.next(run('t1', 'agent', 'run-2'))).toBe(1);
    expect(await seqs.next(run('t1', 'other', 'run-1'))).toBe(1);
    expect(await seqs.next(run('t2', 'agent', 'run-1'))).toBe(1);
    // Ids that would collide if joined with a separator stay apart.
    expect(await seqs.next(run('t1:agent', 'run', '1'))).toBe(1);
    expect(await seqs.next(a)).toBe(4);
  });

  it('gives a delivery numbered before no second seq, and counts on for new ones', async () => {
    const seqs = make(8);
    const a = run('t1', 'agent', 'hooks');
    expect(await seqs.next(a, 'PreToolUse:toolu_1')).toBe(1);
    expect(await seqs.next(a, 'PreToolUse:toolu_1')).toBeUndefined();
    expect(await seqs.next(a, 'PostToolUse:toolu_1')).toBe(2);
    expect(await seqs.next(a)).toBe(3);
    // The same delivery in another run is another step.
    expect(await seqs.next(run('t1', 'agent', 'other'), 'PreToolUse:toolu_1')).toBe(1);
  });

  it('numbers concurrent calls of one run with distinct seqs, and a delivery sent twice at once once', async () => {
    const seqs = make(64);
    const a = run('t1', 'agent', 'parallel');
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => seqs.next(a, `d${i % 10}`)));
    const numbered = got.filter((s): s is number => s !== undefined);
    expect(numbered.sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('remembers the most recent deliveries only, within its bound', async () => {
    const seqs = make(3);
    const a = run('t1', 'agent', 'bounded');
    for (const d of ['d1', 'd2', 'd3', 'd4']) await seqs.next(a, d);
    expect(await seqs.next(a, 'd4')).toBeUndefined(); // kept
    expect(await seqs.next(a, 'd1')).toBe(5); // forgotten: numbered again
  });
}
