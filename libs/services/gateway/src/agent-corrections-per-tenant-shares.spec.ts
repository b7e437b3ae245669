/**
 * Issue #29, fair shares: the proxies' and hooks' per-agent read cursors are a process-wide cache, split
 * per tenant. One tenant's agents by the thousand evict only that tenant's cursors; another tenant's agent
 * keeps its cursor (and so is not re-read from the start of its log on its next request).
 */
import type { Correction } from '@wayfinder/contracts';
import { InMemoryCorrectionLog } from '@wayfinder/tenancy';
import { AgentCorrections } from './agent-corrections';

function hint(tenantId: string, agentId: string): Correction {
  return {
    schema: 'wayfinder.correction.v1', eventId: `c-${tenantId}-${agentId}`, tenantId, agentId, taskId: 't', runId: null, ts: new Date().toISOString(), atSeq: 3,
    action: 'hint', severity: 'mild', reason: 'same call again', deviationIds: ['d1'], hint: { text: 'try another file' },
  };
}

describe('agent correction cursors per tenant', () => {
  it('one tenant flooding the gateway evicts only its own agents', async () => {
    const log = new InMemoryCorrectionLog();
    const corrections = new AgentCorrections(log, { total: 6, perTenant: 4 });
    await log.append([hint('globex', 'g1')]);
    expect((await corrections.pending('globex', 'g1')).guidance).toMatchObject({ eventId: 'c-globex-g1' });
    for (let i = 0; i < 100; i++) await corrections.pending('acme', `a${i}`);
    expect(corrections.remembers('globex', 'g1')).toBe(true);
    expect(corrections.remembers('acme', 'a99')).toBe(true);
    expect(corrections.remembers('acme', 'a95')).toBe(false); // past acme's share of 4
    // The other tenant's cursor held: its hint is still pending, read from where it left off.
    expect((await corrections.pending('globex', 'g1')).guidance).toMatchObject({ eventId: 'c-globex-g1' });
  });
});
