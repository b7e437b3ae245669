/**
 * The memory service's and the history recorder's cost per step (issue #17), before and after, in one
 * run, on the `bench pipeline` fleet's steps (apps/cli/src/bench/steps.ts, 3 tenants, one task):
 * - trail export (what DurableAgentStates.flushNow asks AgentTrails for after each batch): the version 1
 *   JSON document of the previous build (`encodeAgentTrailsV1`, byte for byte the old export) against the
 *   current one (`AgentTrails.exportAgentState`: binary, the log kept encoded), over the same trails,
 *   batch by batch, in alternating order; and the restore of both (importAgentState);
 * - STATE: renderState per step (the previous trailState) against the kept rendering (how many steps
 *   changed what STATE shows, and the cost of a kept one);
 * - history append on the Redis at WAYFINDER_REDIS_URL: the per-record script of the previous build
 *   (history-append-per-record.ts) against RedisHistoryStore.append, the same batches into two
 *   namespaces in alternating order: client CPU, wall time and the scripts' time in Redis (EVALSHA usec
 *   of INFO commandstats — the Redis is shared, so other clients' scripts can add to both).
 * The agents are first warmed until their operation logs are full (MAX_LOG), as in a long run.
 * Run: node bin/run-ts.js tools/bench/memory-history-bench.ts [--steps 20000] [--agents 1000] [--batch 100] [--no-redis]
 * Prints one JSON object (µs per step, ratios new / old).
 */
import { loadavg } from 'node:os';
import Redis from 'ioredis';
import { parseTask, renderState } from '@wayfinder/cognitive-map';
import type { CognitiveMap, LocalizedStep } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { stepSummaryOf, type HistoryRecord } from '@wayfinder/history';
import { encodeAgentTrailsV1, InMemoryVectorStore, InMemoryWorkingMemory, MAX_LOG, trailState, type AgentTrail } from '@wayfinder/memory';
import { deleteMatching, RedisHistoryStore } from '@wayfinder/redis';
import { InMemoryMapStore, MapCache } from '@wayfinder/service-core';
import { AgentTrails, MemoryRecorder } from '@wayfinder/service-memory';
import { PerRecordHistoryAppend } from './history-append-per-record';
import { stepOf } from '../../apps/cli/src/bench/steps';

const BENCH_GOAL = 'read every part of the sales data -> compute the totals per region -> write the quarterly report';
const TASK = 'bench';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const micros = (ns: bigint) => Number(ns) / 1e3;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

function mapOf(tenantId: string): CognitiveMap {
  const parsed = parseTask({ schema: 'wayfinder.task.v1', eventId: `bench-task-${tenantId}`, tenantId, ts: new Date().toISOString(), taskId: TASK, goal: BENCH_GOAL });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** The localizer's answer for the fleet's steps: on the first milestone, a healthy agent completes it late in its run. */
function localizedOf(agent: number, seq: number, map: CognitiveMap): LocalizedStep {
  const step = stepOf(agent, seq, agent % 10 === 0);
  const [m1, m2] = map.milestones;
  const done = seq > 150 && agent % 10 !== 0;
  return {
    schema: 'wayfinder.localized.v1', eventId: `loc-${step.eventId}`, tenantId: step.tenantId, ts: step.ts, step,
    position: { milestoneId: done ? m2.id : m1.id, completed: done ? [m1.id] : [], progress: done ? 0.4 : 0.1, confidence: 0.5 + (seq % 5) / 10, method: 'similarity' },
  };
}

async function main(): Promise<void> {
  const steps = arg('steps', 20_000);
  const agents = arg('agents', 1_000);
  const batch = arg('batch', 100);
  const withRedis = !process.argv.includes('--no-redis');
  const loadBefore = loadavg().map((x) => round(x));

  const maps = new Map([0, 1, 2].map((t) => [`tenant-${t}`, mapOf(`tenant-${t}`)]));
  const embedder = new HashingEmbedder();
  const trails = new AgentTrails(Infinity);
  const mapCache = new MapCache(new InMemoryMapStore());
  const recorder = new MemoryRecorder(new InMemoryWorkingMemory({ ttlMs: 24 * 3_600_000 }), new InMemoryVectorStore({ dimension: embedder.dimension }), embedder, mapCache, trails);
  for (const map of maps.values()) await recorder.onMap(map);

  // Warm: every agent's log full, and each trail exported once (its log bytes kept, as after its first batch).
  const warmSteps = MAX_LOG + 20;
  const seqOf = new Array<number>(agents).fill(0);
  for (let a = 0; a < agents; a++) {
    const map = maps.get(`tenant-${a % 3}`)!;
    for (let s = 0; s < warmSteps; s++) await recorder.onLocalized(localizedOf(a, seqOf[a]++, map));
    trails.exportAgentState(`tenant-${a % 3}`, `agent-${a}`);
  }

  let onLocalizedNs = 0n;
  let exportV1Ns = 0n;
  let exportV2Ns = 0n;
  let renderNs = 0n;
  let keptNs = 0n;
  let rerendered = 0;
  let bytesV1 = 0;
  let bytesV2 = 0;
  let stepsWithMap = 0;
  const batches: HistoryRecord[][] = [];
  let next = 0;
  for (let done = 0; done < steps; done += batch) {
    const touched: number[] = [];
    const records: HistoryRecord[] = [];
    for (let i = 0; i < batch && done + i < steps; i++) {
      const a = next++ % agents;
      const tenantId = `tenant-${a % 3}`;
      const map = maps.get(tenantId)!;
      const localized = localizedOf(a, seqOf[a]++, map);
      records.push(stepSummaryOf(localized));
      const trail = trails.peek({ tenantId, taskId: TASK, agentId: `agent-${a}` }) as AgentTrail;
      const before = trail.rendered;
      let t = process.hrtime.bigint();
      await recorder.onLocalized(localized);
      onLocalizedNs += process.hrtime.bigint() - t;
      stepsWithMap++;
      if (trail.rendered !== before) rerendered++;
      // The previous trailState: renderState on every step.
      t = process.hrtime.bigint();
      renderState({ map, position: trail.position!, ...(trail.conclusion !== undefined && { conclusion: trail.conclusion }), ...(trail.references.length > 0 && { references: trail.references }), ...(trail.lastFailure !== undefined && { lastFailure: trail.lastFailure }) });
      renderNs += process.hrtime.bigint() - t;
      t = process.hrtime.bigint();
      trailState(trail, map);
      keptNs += process.hrtime.bigint() - t;
      touched.push(a);
    }
    batches.push(records);
    const exportV1 = () => {
      const t = process.hrtime.bigint();
      for (const a of touched) {
        const tenantId = `tenant-${a % 3}`;
        const trail = trails.peek({ tenantId, taskId: TASK, agentId: `agent-${a}` }) as AgentTrail;
        bytesV1 += encodeAgentTrailsV1({ tenantId, agentId: `agent-${a}`, tasks: [[TASK, trail]] }).length;
      }
      exportV1Ns += process.hrtime.bigint() - t;
    };
    const exportV2 = () => {
      const t = process.hrtime.bigint();
      for (const a of touched) bytesV2 += trails.exportAgentState(`tenant-${a % 3}`, `agent-${a}`)?.length ?? 0;
      exportV2Ns += process.hrtime.bigint() - t;
    };
    if (batches.length % 2 === 0) {
      exportV1();
      exportV2();
    } else {
      exportV2();
      exportV1();
    }
  }

  // Restore: every agent's document of each version read back (a restart).
  const v1Docs: Uint8Array[] = [];
  const v2Docs: Uint8Array[] = [];
  for (let a = 0; a < agents; a++) {
    const tenantId = `tenant-${a % 3}`;
    v1Docs.push(encodeAgentTrailsV1({ tenantId, agentId: `agent-${a}`, tasks: [[TASK, trails.peek({ tenantId, taskId: TASK, agentId: `agent-${a}` }) as AgentTrail]] }));
    v2Docs.push(trails.exportAgentState(tenantId, `agent-${a}`)!);
  }
  // The fastest of 5 rounds each (the first ones warm the decoders up).
  const restore = (docs: Uint8Array[]) => {
    let best = Infinity;
    for (let round = 0; round < 5; round++) {
      const into = new AgentTrails(Infinity);
      const t = process.hrtime.bigint();
      docs.forEach((d, a) => into.importAgentState(`tenant-${a % 3}`, `agent-${a}`, d));
      best = Math.min(best, micros(process.hrtime.bigint() - t) / agents);
    }
    return best;
  };
  const restoreV2 = restore(v2Docs);
  const restoreV1 = restore(v1Docs);

  const perStep = (ns: bigint) => round(micros(ns) / steps);
  const trail = {
    steps,
    agents,
    batch,
    onLocalizedMicrosPerStep: perStep(onLocalizedNs),
    exportMicrosPerStep: { v1: perStep(exportV1Ns), current: perStep(exportV2Ns), ratio: round(Number(exportV2Ns) / Number(exportV1Ns), 3) },
    documentBytes: { v1: Math.round(bytesV1 / steps), current: Math.round(bytesV2 / steps) },
    restoreMicrosPerAgent: { v1: round(restoreV1), current: round(restoreV2) },
    state: {
      renderMicrosPerStep: perStep(renderNs),
      stepsThatChangedState: round(rerendered / stepsWithMap, 4),
      keptMicrosPerCall: perStep(keptNs),
      newMicrosPerStep: round((rerendered * (micros(renderNs) / stepsWithMap) + (stepsWithMap - rerendered) * (micros(keptNs) / stepsWithMap)) / steps),
    },
  };

  let history: unknown = 'skipped (--no-redis)';
  if (withRedis) history = await historyBench(batches, steps);
  process.stdout.write(`${JSON.stringify({ bench: 'memory-history', node: process.version, loadAverage: { before: loadBefore, after: loadavg().map((x) => round(x)) }, trail, history }, null, 2)}\n`);
}

async function historyBench(batches: HistoryRecord[][], steps: number): Promise<unknown> {
  const url = process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  const run = `bench-hist-${process.pid}-${Date.now().toString(36)}`;
  const before = new PerRecordHistoryAppend(redis, `${run}-old`);
  const after = new RedisHistoryStore(redis, { namespace: `${run}-new` });
  const evalshaMicros = async () => Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);
  const totals = { old: { cpu: 0, wall: 0n, redis: 0, added: 0 }, new: { cpu: 0, wall: 0n, redis: 0, added: 0 } };
  const time = async (which: 'old' | 'new', records: HistoryRecord[]) => {
    const r0 = await evalshaMicros();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const added = await (which === 'old' ? before : after).append(records);
    totals[which].wall += process.hrtime.bigint() - t0;
    const c = process.cpuUsage(c0);
    totals[which].cpu += c.user + c.system;
    totals[which].redis += (await evalshaMicros()) - r0;
    totals[which].added += added;
  };
  try {
    // One warm-up batch each (script load, connection).
    await before.append(batches[0]);
    await after.append(batches[0]);
    for (let i = 1; i < batches.length; i++) {
      if (i % 2 === 0) {
        await time('old', batches[i]);
        await time('new', batches[i]);
      } else {
        await time('new', batches[i]);
        await time('old', batches[i]);
      }
    }
    const measured = steps - batches[0].length;
    const figures = (t: typeof totals.old) => ({ clientCpuMicrosPerStep: round(t.cpu / measured), wallMicrosPerStep: round(micros(t.wall) / measured), redisScriptMicrosPerStep: round(t.redis / measured), added: t.added });
    return {
      steps: measured,
      perRecordScript: figures(totals.old),
      perTenantScript: figures(totals.new),
      ratio: {
        clientCpu: round(totals.new.cpu / totals.old.cpu, 3),
        wall: round(Number(totals.new.wall) / Number(totals.old.wall), 3),
        redisScript: round(totals.new.redis / Math.max(1, totals.old.redis), 3),
      },
    };
  } finally {
    // Only this run's keys, never anything else on the shared Redis.
    await deleteMatching(redis, [`wf:*:hist:${run}-*`, `wf:hist:${run}-*`]);
    await redis.quit();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
