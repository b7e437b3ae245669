/**
 * The contract every WorkingMemory adapter passes (in-memory here, Redis in libs/platform). Call it from a
 * spec: `workingMemoryContract(async ({ ttlMs }) => ({ memory, advanceTime }))`. `advanceTime` moves the
 * adapter's clock (a fake clock in memory; a real wait for Redis, so keep ttlMs small there).
 * Keys are unique per test, so the suite can run against a shared server.
 */
import type { Charter } from './charter';
import { rollbackTo, type AgentScope, type Checkpoint, type WorkingMemory } from './working-memory.port';

export interface WorkingMemoryHarness {
  memory: WorkingMemory;
  advanceTime(ms: number): Promise<void>;
  dispose?(): Promise<void>;
}

export type MakeWorkingMemory = (options: { ttlMs: number }) => WorkingMemoryHarness | Promise<WorkingMemoryHarness>;

const TTL_MS = 1000;
let unique = 0;

function scopes() {
  unique += 1;
  const run = `${Date.now().toString(36)}-${unique}`;
  const taskId = `task-${run}`;
  const a: AgentScope = { tenantId: `tenant-a-${run}`, taskId, agentId: 'agent-1' };
  const b: AgentScope = { tenantId: `tenant-b-${run}`, taskId, agentId: 'agent-1' };
  return { a, b, a2: { ...a, agentId: 'agent-2' } };
}

const charter = (goal: string): Charter => ({ goal, constraints: [{ n: 1, text: 'Only use public sources', source: 'task' }] });
const cp = (id: string, seq: number): Checkpoint => ({ id, milestoneId: `m-${id}`, seq, state: `STATE at ${id}` });

export function workingMemoryContract(make: MakeWorkingMemory): void {
  describe('WorkingMemory contract', () => {
    let h: WorkingMemoryHarness;
    beforeEach(async () => {
      h = await make({ ttlMs: TTL_MS });
    });
    afterEach(async () => {
      await h.dispose?.();
    });

    it('stores and overwrites the charter', async () => {
      const { a } = scopes();
      expect(await h.memory.getCharter(a)).toBeUndefined();
      await h.memory.setCharter(a, charter('first'));
      await h.memory.setCharter(a, charter('second'));
      expect(await h.memory.getCharter(a)).toEqual(charter('second'));
    });

    it('hands out copies: changing a returned charter changes nothing stored', async () => {
      const { a } = scopes();
      await h.memory.setCharter(a, charter('goal'));
      const read = await h.memory.getCharter(a);
      read?.constraints.push({ n: 2, text: 'injected', source: 'feedback' });
      expect((await h.memory.getCharter(a))?.constraints).toHaveLength(1);
    });

    it('overwrites STATE and never moves it back to an older step', async () => {
      const { a } = scopes();
      expect(await h.memory.putState(a, { seq: 3, text: 'three' })).toBe(true);
      expect(await h.memory.putState(a, { seq: 5, text: 'five' })).toBe(true);
      expect(await h.memory.putState(a, { seq: 4, text: 'four (late)' })).toBe(false);
      expect(await h.memory.getState(a)).toEqual({ seq: 5, text: 'five' });
      expect(await h.memory.putState(a, { seq: 5, text: 'five, again' })).toBe(true);
      expect(await h.memory.getState(a)).toEqual({ seq: 5, text: 'five, again' });
    });

    it('keeps checkpoints as a stack, oldest first', async () => {
      const { a } = scopes();
      for (const [id, seq] of [['c1', 4], ['c2', 9], ['c3', 15]] as const) await h.memory.pushCheckpoint(a, cp(id, seq));
      expect((await h.memory.listCheckpoints(a)).map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
      expect(await h.memory.popCheckpoint(a)).toEqual(cp('c3', 15));
      expect((await h.memory.listCheckpoints(a)).map((c) => c.id)).toEqual(['c1', 'c2']);
      await h.memory.popCheckpoint(a);
      await h.memory.popCheckpoint(a);
      expect(await h.memory.popCheckpoint(a)).toBeUndefined();
      expect(await h.memory.listCheckpoints(a)).toEqual([]);
    });

    it('ignores a redelivered push of the checkpoint already on top', async () => {
      const { a } = scopes();
      await h.memory.pushCheckpoint(a, cp('c1', 4));
      await h.memory.pushCheckpoint(a, cp('c1', 4));
      expect(await h.memory.listCheckpoints(a)).toHaveLength(1);
    });

    it('rolls back by popping down to the named checkpoint', async () => {
      const { a } = scopes();
      for (const [id, seq] of [['c1', 4], ['c2', 9], ['c3', 15], ['c4', 20]] as const) await h.memory.pushCheckpoint(a, cp(id, seq));
      expect(await rollbackTo(h.memory, a, 'c2')).toEqual(cp('c2', 9));
      expect((await h.memory.listCheckpoints(a)).map((c) => c.id)).toEqual(['c1', 'c2']);
      expect(await rollbackTo(h.memory, a, 'missing')).toBeUndefined();
      expect((await h.memory.listCheckpoints(a)).map((c) => c.id)).toEqual(['c1', 'c2']);
    });

    it('isolates tenants: the same task and agent ids in another tenant see and change nothing', async () => {
      const { a, b } = scopes();
      await h.memory.setCharter(a, charter('tenant A goal'));
      await h.memory.putState(a, { seq: 7, text: 'A state' });
      await h.memory.pushCheckpoint(a, cp('c1', 4));

      expect(await h.memory.getCharter(b)).toBeUndefined();
      expect(await h.memory.getState(b)).toBeUndefined();
      expect(await h.memory.listCheckpoints(b)).toEqual([]);
      expect(await h.memory.popCheckpoint(b)).toBeUndefined();

      await h.memory.setCharter(b, charter('tenant B goal'));
      await h.memory.putState(b, { seq: 99, text: 'B state' });
      expect(await h.memory.getCharter(a)).toEqual(charter('tenant A goal'));
      expect(await h.memory.getState(a)).toEqual({ seq: 7, text: 'A state' });
      expect(await h.memory.listCheckpoints(a)).toEqual([cp('c1', 4)]);
    });

    it('never lets tenants with colliding composite ids (":", "%", NUL, "{") see each other’s entries', async () => {
      const run = `${Date.now().toString(36)}-${++unique}`;
      const pairs: Array<[AgentScope, AgentScope]> = [
        [{ tenantId: `a:${run}`, taskId: 'b:c', agentId: 'd' }, { tenantId: `a:${run}:b`, taskId: 'c', agentId: 'd' }],
        [{ tenantId: `p%3a${run}`, taskId: 't', agentId: 'x' }, { tenantId: `p:${run}`, taskId: 't', agentId: 'x' }],
        [{ tenantId: `n${run}`, taskId: 't\u0000u', agentId: 'v' }, { tenantId: `n${run}`, taskId: 't', agentId: 'u\u0000v' }],
        [{ tenantId: `{b}${run}`, taskId: 't', agentId: 'z' }, { tenantId: `b${run}`, taskId: 't', agentId: 'z' }],
      ];
      for (const [first, second] of pairs) {
        await h.memory.setCharter(first, charter('first'));
        await h.memory.putState(first, { seq: 3, text: 'first state' });
        await h.memory.pushCheckpoint(first, cp('first-cp', 3));
        expect(await h.memory.getCharter(second)).toBeUndefined();
        expect(await h.memory.getState(second)).toBeUndefined();
        expect(await h.memory.listCheckpoints(second)).toEqual([]);
        expect(await rollbackTo(h.memory, second, 'first-cp')).toBeUndefined();
        expect((await h.memory.listCheckpoints(first)).map((c) => c.id)).toEqual(['first-cp']);
      }
    });

    it('updates the charter atomically: concurrent appends are all kept, each with its own number', async () => {
      const { a } = scopes();
      await h.memory.setCharter(a, charter('goal'));
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          h.memory.updateCharter(a, (current) => {
            const base = current ?? charter('goal');
            const n = Math.max(0, ...base.constraints.map((c) => c.n)) + 1;
            return { ...base, constraints: [...base.constraints, { n, text: `rule ${i}`, source: 'feedback' }] };
          }),
        ),
      );
      const stored = await h.memory.getCharter(a);
      expect(stored?.constraints.map((c) => c.text).sort()).toEqual(['Only use public sources', ...Array.from({ length: 8 }, (_, i) => `rule ${i}`)].sort());
      expect(new Set(stored?.constraints.map((c) => c.n)).size).toBe(9);
      expect(await h.memory.updateCharter(a, () => undefined)).toEqual(stored);
    });

    it('keeps STATE and checkpoints per agent', async () => {
      const { a, a2 } = scopes();
      await h.memory.putState(a, { seq: 1, text: 'agent 1' });
      await h.memory.pushCheckpoint(a, cp('c1', 1));
      expect(await h.memory.getState(a2)).toBeUndefined();
      expect(await h.memory.listCheckpoints(a2)).toEqual([]);
    });

    it('rejects a scope without a tenant', async () => {
      const { a } = scopes();
      const noTenant = { ...a, tenantId: '' };
      await expect(h.memory.getCharter(noTenant)).rejects.toThrow(/tenant/i);
      await expect(h.memory.setCharter(noTenant, charter('x'))).rejects.toThrow(/tenant/i);
      await expect(h.memory.getState(noTenant)).rejects.toThrow(/tenant/i);
      await expect(h.memory.putState(noTenant, { seq: 1, text: 'x' })).rejects.toThrow(/tenant/i);
      await expect(h.memory.pushCheckpoint(noTenant, cp('c', 1))).rejects.toThrow(/tenant/i);
      await expect(h.memory.popCheckpoint(noTenant)).rejects.toThrow(/tenant/i);
      await expect(h.memory.listCheckpoints(noTenant)).rejects.toThrow(/tenant/i);
    });

    it('expires entries ttl after their last write; reads do not extend them', async () => {
      const { a } = scopes();
      await h.memory.setCharter(a, charter('goal'));
      await h.memory.putState(a, { seq: 1, text: 'state' });
      await h.memory.pushCheckpoint(a, cp('c1', 1));
      await h.advanceTime(TTL_MS * 0.6);
      await h.memory.putState(a, { seq: 2, text: 'state 2' }); // refreshes STATE only
      expect(await h.memory.getCharter(a)).toBeDefined(); // a read: no extension
      await h.advanceTime(TTL_MS * 0.6);
      expect(await h.memory.getCharter(a)).toBeUndefined();
      expect(await h.memory.listCheckpoints(a)).toEqual([]);
      expect(await h.memory.getState(a)).toEqual({ seq: 2, text: 'state 2' });
      await h.advanceTime(TTL_MS * 0.6);
      expect(await h.memory.getState(a)).toBeUndefined();
    });
  });
}
