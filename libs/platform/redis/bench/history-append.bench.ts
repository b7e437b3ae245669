/**
 * Client CPU per record of RedisHistoryStore.append on a real Redis (issue #17: the history recorder's
 * append was the pipeline's largest single cost, 19-26 µs per step in its profiles). Batches of 800 step
 * records over 80 agents, as a one-pass steps batch gives the recorder; 30 batches to warm up, then 150
 * timed. Prints user and system CPU µs per record (the process's own, not Redis's) and the wall time.
 * Run: node bin/run-ts.js libs/platform/redis/bench/history-append.bench.ts [redis-url]
 */
import Redis from 'ioredis';
import type { StepSummary } from '@wayfinder/history';
import { deleteMatching } from '../src/keys';
import { RedisHistoryStore } from '../src/redis-history-store';

const BATCH = 800;
const AGENTS = 80;

async function main(): Promise<void> {
  const redis = new Redis(process.argv[2] ?? process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const namespace = `bench-${process.pid}`;
  const store = new RedisHistoryStore(redis, { namespace });
  let seq = 0;
  const start = Date.now();
  const record = (agent: number, n: number): StepSummary => ({
    id: `step:evt-${agent}-${n}-0123456789abcdef01234567`, kind: 'step', tenantId: 'bench-tenant-0', agentId: `agent-${agent}`, taskId: `task-${agent}`, runId: null,
    ts: new Date(start + n).toISOString(), seq: n, stepKind: 'action', tool: 'read_file', argsHash: '0123456789abcdef', milestoneId: 'm2', progress: 0.4, completed: ['m1'],
    method: 'validator', note: null, tokens: null,
  });
  const batch = () => Array.from({ length: BATCH }, (_, i) => record(i % AGENTS, seq++));
  for (let i = 0; i < 30; i++) await store.append(batch());
  const cpu0 = process.cpuUsage();
  const wall0 = Date.now();
  let records = 0;
  for (let i = 0; i < 150; i++) {
    const b = batch();
    records += b.length;
    await store.append(b);
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ records, userMicrosPerRecord: +(cpu.user / records).toFixed(2), systemMicrosPerRecord: +(cpu.system / records).toFixed(2), cpuMicrosPerRecord: +((cpu.user + cpu.system) / records).toFixed(2), wallMs: Date.now() - wall0 }));
  await deleteMatching(redis, [`wf:*:hist:${namespace}:*`, `wf:hist:${namespace}:*`]);
  await redis.quit();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
