/**
 * The contract every HistoryStore adapter passes (STYLE "Ports at the edges"): ordered, idempotent
 * appends; queries by tenant, agent, task, kind and time; bounds per agent and per tenant; retention; and
 * tenants kept apart even when their agent, task and record ids collide or contain separators.
 */
import type { HistoryLimits, HistoryStore } from './history-store.port';
import { correctionRecord, deviationRecord, escalationRecord, stepRecord, T0 } from './history-fixtures.testing';

export interface HistoryStoreHarness {
  store: HistoryStore;
  /** Moves the store's clock forward. */
  advance(ms: number): void;
}

/** Makes a fresh, empty store (own namespace) with these limits and a clock starting at `startMs`. */
export type MakeHistoryStore = (limits: Partial<HistoryLimits>, startMs: number) => HistoryStoreHarness | Promise<HistoryStoreHarness>;

export function historyStoreContract(make: MakeHistoryStore): void {
  const HOUR = 60 * 60 * 1000;

  it('returns an agent\'s records oldest first, and a second append of the same records adds nothing', async () => {
    const { store } = await make({}, T0 + HOUR);
    const a = { tenantId: 'acme', agentId: 'agent-1' };
    const records = [stepRecord(a, 1, T0), deviationRecord(a, 3, T0 + 3_000), stepRecord(a, 2, T0 + 1_000), stepRecord(a, 3, T0 + 2_000), correctionRecord(a, 3, T0 + 3_500)];
    expect(await store.append(records)).toBe(5);
    expect(await store.append(records)).toBe(0);
    const history = await store.agentHistory('acme', 'agent-1');
    expect(history.map((r) => r.id)).toEqual(['step:agent-1-1', 'step:agent-1-2', 'step:agent-1-3', 'deviation:d-agent-1-3', 'correction:c-agent-1-3']);
    const entry = await store.agent('acme', 'agent-1');
    expect(entry).toMatchObject({ agentId: 'agent-1', taskId: 'task-1', lastSeq: 3, firstSeen: new Date(T0).toISOString(), lastSeen: new Date(T0 + 3_500).toISOString() });
  });

  it('keeps tenants apart when agent, task and record ids collide or contain separators', async () => {
    const { store } = await make({}, T0 + HOUR);
    const a = { tenantId: 'acme', agentId: 'x:y' };
    const b = { tenantId: 'acme:x', agentId: 'y' };
    const c = { tenantId: 'globex', agentId: 'x:y' };
    await store.append([deviationRecord(a, 1, T0, { message: 'acme' }), deviationRecord(c, 1, T0, { message: 'globex' }), stepRecord(b, 1, T0)]);
    const acme = await store.agentHistory('acme', 'x:y');
    const globex = await store.agentHistory('globex', 'x:y');
    expect(acme.map((r) => (r.kind === 'deviation' ? r.message : r.kind))).toEqual(['acme']);
    expect(globex.map((r) => (r.kind === 'deviation' ? r.message : r.kind))).toEqual(['globex']);
    expect(await store.agentHistory('acme:x', 'y')).toHaveLength(1);
    expect(await store.agentHistory('acme', 'x')).toEqual([]);
    expect((await store.get('globex', 'deviation:d-x:y-1'))?.tenantId).toBe('globex');
    expect(await store.get('initech', 'deviation:d-x:y-1')).toBeUndefined();
    expect((await store.agents('acme')).map((e) => e.agentId)).toEqual(['x:y']);
    expect((await store.tenantHistory('globex')).every((r) => r.tenantId === 'globex')).toBe(true);
    expect(await store.tenants()).toEqual(expect.arrayContaining(['acme', 'acme:x', 'globex']));
    expect(await store.tenants()).not.toContain('initech');
  });

  it('keeps the newest steps and records per agent within their bounds', async () => {
    const { store } = await make({ maxStepsPerAgent: 5, maxRecordsPerAgent: 3 }, T0 + HOUR);
    const a = { tenantId: 'acme', agentId: 'busy' };
    await store.append(Array.from({ length: 8 }, (_, i) => stepRecord(a, i + 1, T0 + i * 1_000)));
    await store.append(Array.from({ length: 6 }, (_, i) => deviationRecord(a, i + 1, T0 + i * 1_000)));
    const history = await store.agentHistory('acme', 'busy');
    expect(history.filter((r) => r.kind === 'step').map((r) => r.kind === 'step' && r.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(history.filter((r) => r.kind === 'deviation').map((r) => r.id)).toEqual(['deviation:d-busy-4', 'deviation:d-busy-5', 'deviation:d-busy-6']);
  });

  it('bounds the tenant-wide records and never lists steps there', async () => {
    const { store } = await make({ maxRecordsPerTenant: 4 }, T0 + HOUR);
    for (let i = 0; i < 6; i++) await store.append([stepRecord({ tenantId: 'acme', agentId: `a${i}` }, 1, T0 + i), escalationRecord({ tenantId: 'acme', agentId: `a${i}` }, 1, T0 + i * 1_000)]);
    const all = await store.tenantHistory('acme');
    expect(all.map((r) => r.agentId)).toEqual(['a2', 'a3', 'a4', 'a5']);
    expect(all.every((r) => r.kind === 'escalation')).toBe(true);
  });

  it('answers by task, kind and time window, with the newest `limit`', async () => {
    const { store } = await make({}, T0 + HOUR);
    const one = { tenantId: 'acme', agentId: 'a1', taskId: 'report' };
    const two = { tenantId: 'acme', agentId: 'a2', taskId: 'refund' };
    await store.append([stepRecord(one, 1, T0), deviationRecord(one, 2, T0 + 10_000), correctionRecord(one, 2, T0 + 20_000), deviationRecord(two, 1, T0 + 30_000), stepRecord(two, 1, T0 + 5_000)]);
    expect((await store.agents('acme', { taskId: 'refund' })).map((e) => e.agentId)).toEqual(['a2']);
    expect((await store.agents('acme')).map((e) => e.agentId)).toEqual(['a2', 'a1']);
    expect((await store.tenantHistory('acme', { taskId: 'report' })).map((r) => r.kind)).toEqual(['deviation', 'correction']);
    expect((await store.tenantHistory('acme', { kinds: ['deviation'] })).map((r) => r.agentId)).toEqual(['a1', 'a2']);
    expect((await store.agentHistory('acme', 'a1', { since: T0 + 5_000, until: T0 + 15_000 })).map((r) => r.kind)).toEqual(['deviation']);
    expect((await store.agentHistory('acme', 'a1', { limit: 2 })).map((r) => r.kind)).toEqual(['deviation', 'correction']);
    expect((await store.agentHistory('acme', 'a1', { kinds: ['step'] })).map((r) => r.kind)).toEqual(['step']);
  });

  it('drops what is older than the retention: on append and, as the clock moves, on read', async () => {
    const { store, advance } = await make({ retentionMs: HOUR }, T0 + HOUR / 2);
    const a = { tenantId: 'acme', agentId: 'old' };
    expect(await store.append([stepRecord(a, 0, T0 - HOUR)])).toBe(0);
    await store.append([stepRecord(a, 1, T0), deviationRecord(a, 1, T0 + HOUR / 4)]);
    expect(await store.agentHistory('acme', 'old')).toHaveLength(2);
    advance(HOUR * 0.6);
    expect((await store.agentHistory('acme', 'old')).map((r) => r.kind)).toEqual(['deviation']);
    expect(await store.get('acme', 'step:old-1')).toBeUndefined();
    advance(HOUR);
    expect(await store.agentHistory('acme', 'old')).toEqual([]);
    expect(await store.agents('acme')).toEqual([]);
    expect(await store.agent('acme', 'old')).toBeUndefined();
  });

  it('keeps each tenant for its own retention, read at every call (a policy change applies at once)', async () => {
    const retention = new Map<string, number>([['brief', HOUR / 4]]);
    const { store, advance } = await make({ retentionMs: HOUR, retentionOf: (tenantId) => retention.get(tenantId) ?? HOUR }, T0);
    const brief = { tenantId: 'brief', agentId: 'a' };
    const lasting = { tenantId: 'lasting', agentId: 'a' };
    await store.append([deviationRecord(brief, 1, T0), deviationRecord(lasting, 1, T0)]);
    advance(HOUR / 2);
    // Past the short retention: gone for that tenant only, on every read.
    expect(await store.agentHistory('brief', 'a')).toEqual([]);
    expect(await store.tenantHistory('brief')).toEqual([]);
    expect(await store.agents('brief')).toEqual([]);
    expect(await store.get('brief', 'deviation:d-a-1')).toBeUndefined();
    expect(await store.tenants()).not.toContain('brief');
    expect(await store.agentHistory('lasting', 'a')).toHaveLength(1);
    // An append older than the tenant's retention is not kept; the other tenant's is.
    expect(await store.append([deviationRecord(brief, 2, T0 + HOUR / 8), deviationRecord(lasting, 2, T0 + HOUR / 8)])).toBe(1);
    // The retention lengthened: what was stored (still within the new one) reads again.
    retention.set('brief', HOUR);
    expect(await store.agentHistory('brief', 'a')).toHaveLength(1);
  });
}
