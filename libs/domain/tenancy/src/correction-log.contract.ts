/**
 * The CorrectionLog contract: every adapter (in memory, Redis) passes it. `make` returns an empty log
 * of its own with the given limits and a clock the suite can move (`now`).
 */
import type { Correction } from '@wayfinder/contracts';
import { compareCursors, type CorrectionLog, type CorrectionLogLimits } from './correction-log';

export interface CorrectionLogHarness {
  log: CorrectionLog;
  /** Moves the log's clock forward (a Redis harness waits: stream ids carry the server's time). */
  advance(ms: number): void | Promise<void>;
}

export function hintFor(tenantId: string, agentId: string, n: number): Correction {
  return {
    schema: 'wayfinder.correction.v1',
    eventId: `corr-${tenantId}-${agentId}-${n}`,
    tenantId,
    ts: '2026-01-01T00:00:00.000Z',
    agentId,
    taskId: 'task-1',
    runId: null,
    deviationIds: [`dev-${n}`],
    severity: 'mild',
    atSeq: n,
    reason: `repeat ${n}`,
    action: 'hint',
    hint: { text: `stop repeating (${n})` },
  };
}

export function correctionLogContract(make: (limits: CorrectionLogLimits) => Promise<CorrectionLogHarness> | CorrectionLogHarness): void {
  const limits = { maxPerAgent: 3, ttlMs: 60_000 };

  describe('CorrectionLog contract', () => {
    it('gives an agent its corrections in order, with increasing cursors, and resumes after a cursor', async () => {
      const { log } = await make(limits);
      await log.append([hintFor('acme', 'a1', 1), hintFor('acme', 'a2', 1)]);
      await log.append([hintFor('acme', 'a1', 2)]);
      const all = await log.after('acme', 'a1', undefined, 10);
      expect(all.map((e) => e.correction.eventId)).toEqual(['corr-acme-a1-1', 'corr-acme-a1-2']);
      expect(compareCursors(all[0].cursor, all[1].cursor)).toBeLessThan(0);
      expect((await log.after('acme', 'a1', all[0].cursor, 10)).map((e) => e.correction.eventId)).toEqual(['corr-acme-a1-2']);
      expect(await log.after('acme', 'a1', all[1].cursor, 10)).toEqual([]);
      expect((await log.after('acme', 'a1', undefined, 1)).length).toBe(1);
    });

    it('keeps a redelivered correction once', async () => {
      const { log } = await make(limits);
      await log.append([hintFor('acme', 'a1', 1)]);
      await log.append([hintFor('acme', 'a1', 1), hintFor('acme', 'a1', 2)]);
      expect((await log.after('acme', 'a1', undefined, 10)).map((e) => e.correction.eventId)).toEqual(['corr-acme-a1-1', 'corr-acme-a1-2']);
    });

    it('keeps the newest maxPerAgent corrections of each agent', async () => {
      const { log } = await make(limits);
      for (let n = 1; n <= 5; n++) await log.append([hintFor('acme', 'a1', n)]);
      await log.append([hintFor('acme', 'a2', 1)]);
      expect((await log.after('acme', 'a1', undefined, 10)).map((e) => e.correction.atSeq)).toEqual([3, 4, 5]);
      expect((await log.after('acme', 'a2', undefined, 10)).length).toBe(1);
    });

    it('forgets corrections older than the TTL', async () => {
      const harness = await make({ maxPerAgent: 3, ttlMs: 400 });
      await harness.log.append([hintFor('acme', 'a1', 1)]);
      await harness.advance(600);
      await harness.log.append([hintFor('acme', 'a1', 2)]);
      expect((await harness.log.after('acme', 'a1', undefined, 10)).map((e) => e.correction.atSeq)).toEqual([2]);
      expect(await harness.log.find('acme', 'a1', 'corr-acme-a1-1')).toBeUndefined();
    });

    it('never shows one tenant another tenant’s corrections, even for the same agent id', async () => {
      const { log } = await make(limits);
      await log.append([hintFor('acme', 'shared', 1)]);
      expect(await log.after('globex', 'shared', undefined, 10)).toEqual([]);
      expect(await log.find('globex', 'shared', 'corr-acme-shared-1')).toBeUndefined();
      expect(await log.ack('globex', 'shared', 'corr-acme-shared-1', 'applied')).toBe(false);
      expect(await log.ackOf('acme', 'shared', 'corr-acme-shared-1')).toBeUndefined();
    });

    it('never lets tenants with colliding composite ids (":", "%", NUL, "{") see each other’s corrections', async () => {
      const { log } = await make(limits);
      // Each pair would meet under a `tenant:agent` key, or under percent-encoding done twice.
      const pairs: Array<[[string, string], [string, string]]> = [
        [['a:b', 'c'], ['a', 'b:c']],
        [['p%3ax', 'y'], ['p:x', 'y']],
        [['n\u0000m', 'z'], ['n', '\u0000m\u0000z']],
        [['{q}', 'w'], ['q', 'w']],
      ];
      for (const [[t1, a1], [t2, a2]] of pairs) {
        await log.append([hintFor(t1, a1, 1)]);
        expect(await log.after(t2, a2, undefined, 10)).toEqual([]);
        expect(await log.find(t2, a2, `corr-${t1}-${a1}-1`)).toBeUndefined();
        expect(await log.ack(t2, a2, `corr-${t1}-${a1}-1`, 'applied')).toBe(false);
        await log.append([hintFor(t2, a2, 2)]);
        expect((await log.after(t1, a1, undefined, 10)).map((e) => e.correction.tenantId)).toEqual([t1]);
      }
    });

    it('records an acknowledgement of a known correction only', async () => {
      const { log } = await make(limits);
      await log.append([hintFor('acme', 'a1', 1)]);
      expect((await log.find('acme', 'a1', 'corr-acme-a1-1'))?.correction.atSeq).toBe(1);
      expect(await log.ack('acme', 'a1', 'corr-acme-a1-1', 'applied')).toBe(true);
      expect(await log.ackOf('acme', 'a1', 'corr-acme-a1-1')).toBe('applied');
      expect(await log.ack('acme', 'a1', 'corr-unknown', 'applied')).toBe(false);
      expect(await log.ack('acme', 'a2', 'corr-acme-a1-1', 'applied')).toBe(false);
    });
  });
}
