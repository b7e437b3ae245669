// An agent's first localized step and a correction of it (two topics, two batches) can both find no
// trail and read the checkpoint seed at the same time. The trail made first has the step applied by the
// time the slower read returns; that read must not put a fresh trail in its place, or the step is lost
// from the trail (its operation log entry, its seq) while its offset is committed.
import { appendLog } from '@wayfinder/memory';
import { AgentTrails } from './agent-trails';

describe('a trail first seen by two batches at once', () => {
  it('is one trail: the slower seed read returns the trail the faster one made, with what was applied to it', async () => {
    const trails = new AgentTrails();
    const scope = { tenantId: 'acme', agentId: 'a1', taskId: 'report' };
    let releaseSlowSeed!: (checkpointed: string[]) => void;
    const slowSeed = new Promise<string[]>((resolve) => (releaseSlowSeed = resolve));

    const forCorrection = trails.get(scope, () => slowSeed);
    const forStep = await trails.get(scope, async () => []);
    // The step batch applies seq 0 while the correction's seed read is still out.
    appendLog(forStep, { seq: 0, milestoneId: null, kind: 'action', text: 'read_file /data/sales.csv' });
    forStep.lastSeq = 0;
    releaseSlowSeed([]);

    expect(await forCorrection).toBe(forStep);
    expect(trails.peek(scope)).toMatchObject({ lastSeq: 0, log: [expect.objectContaining({ seq: 0 })] });
    expect(trails.size).toBe(1);
  });
});
