/**
 * Issue #29: the process-wide caches (the embedded correction log, the LLM proxy's conversation tracker,
 * the doors' step seqs: their own spec, in-memory-step-seqs-contract.spec.ts) are split into per-tenant shares. Tenant A fills far past its share
 * (and past the global bound); every entry tenant B wrote before is still there, in each.
 */
import { InMemoryCorrectionLog, TenantShares } from '@wayfinder/tenancy';
import { hintFor } from '@wayfinder/tenancy/testing';
import { ConversationTracker } from './chat/conversation-tracker';

const B_ENTRIES = 5;
const SHARE = 10;
const TOTAL = 20;
const FLOOD = 1_000;

describe('one tenant cannot evict another tenant’s cache entries', () => {
  it('the correction log: tenant A’s 1,000 agents leave tenant B’s agents’ corrections in place', async () => {
    const log = new InMemoryCorrectionLog({ maxAgents: TOTAL, maxAgentsPerTenant: SHARE });
    for (let i = 0; i < B_ENTRIES; i++) await log.append([hintFor('tenant-b', `b${i}`, 1)]);
    for (let i = 0; i < FLOOD; i++) await log.append([hintFor('tenant-a', `a${i}`, 1)]);
    for (let i = 0; i < B_ENTRIES; i++) {
      expect((await log.after('tenant-b', `b${i}`, undefined, 10)).map((e) => e.correction.eventId)).toEqual([`corr-tenant-b-b${i}-1`]);
    }
    // A keeps only its own newest, within its share.
    expect(await log.after('tenant-a', 'a0', undefined, 10)).toEqual([]);
    expect(await log.after('tenant-a', `a${FLOOD - 1}`, undefined, 10)).toHaveLength(1);
  });

  it('the proxy’s conversation tracker: tenant A’s 1,000 conversations leave tenant B’s remembered', () => {
    const tracker = new ConversationTracker(TOTAL, SHARE);
    const messages = [{ role: 'user', content: 'hello' }];
    const remember = (key: string) => tracker.commit(key, 'run-1', messages, tracker.admit(key, 'run-1', messages));
    for (let i = 0; i < B_ENTRIES; i++) remember(`tenant-b\u0000b${i}\u0000task`);
    for (let i = 0; i < FLOOD; i++) remember(`tenant-a\u0000a${i}\u0000task`);
    for (let i = 0; i < B_ENTRIES; i++) expect(tracker.admit(`tenant-b\u0000b${i}\u0000task`, 'run-1', messages).from).toBe(messages.length);
    expect(tracker.admit('tenant-a\u0000a0\u0000task', 'run-1', messages).from).toBe(0);
    expect(tracker.size).toBeLessThanOrEqual(SHARE + B_ENTRIES);
  });

  it('the shared structure: each tenant is held to its share, and past the global bound the largest tenant gives way', () => {
    const shares = new TenantShares<number>({ perTenant: 4, total: 6 });
    for (let i = 0; i < 3; i++) shares.set('b', `b${i}`, i);
    for (let i = 0; i < 100; i++) shares.set('a', `a${i}`, i);
    expect([shares.sizeOf('a'), shares.sizeOf('b'), shares.size]).toEqual([3, 3, 6]);
    expect(['b0', 'b1', 'b2'].every((k) => shares.has('b', k))).toBe(true);
    expect(['a97', 'a98', 'a99'].every((k) => shares.has('a', k))).toBe(true);
    shares.set('a', 'a100', 100); // a is past b now (4 to 3): the global bound takes a's oldest
    expect([shares.sizeOf('a'), shares.sizeOf('b'), shares.has('a', 'a97')]).toEqual([3, 3, false]);
    shares.set('b', 'b0', 10); // re-written: becomes b's newest, nothing evicted
    shares.set('b', 'b3', 3); // b is the largest now: its own oldest (b1) goes, not b0
    expect([shares.has('b', 'b1'), shares.get('b', 'b0'), shares.size]).toEqual([false, 10, 6]);
  });
});
