// The in-memory StepSeqs (embedded mode) passes the contract suite, and holds each tenant to its share.
import { InMemoryStepSeqs } from './step-seqs';
import { stepSeqsContract } from './step-seqs.contract';

describe('InMemoryStepSeqs', () => {
  stepSeqsContract((seenPerRun) => new InMemoryStepSeqs({ seenPerRun }));

  it("keeps tenant B's runs while tenant A floods past its share", async () => {
    const seqs = new InMemoryStepSeqs({ maxRuns: 100, maxRunsPerTenant: 50 });
    for (let i = 0; i < 10; i++) expect(await seqs.next({ tenantId: 'b', agentId: `b${i}`, runId: 'r' }, 'PreToolUse:t1')).toBe(1);
    for (let i = 0; i < 1_000; i++) await seqs.next({ tenantId: 'a', agentId: `a${i}`, runId: 'r' });
    for (let i = 0; i < 10; i++) {
      expect(await seqs.next({ tenantId: 'b', agentId: `b${i}`, runId: 'r' }, 'PreToolUse:t1')).toBeUndefined();
      expect(await seqs.next({ tenantId: 'b', agentId: `b${i}`, runId: 'r' })).toBe(2);
    }
    expect(await seqs.next({ tenantId: 'a', agentId: 'a0', runId: 'r' })).toBe(1); // A's oldest went: its own share
  });
});
