/**
 * Fault tolerance on the real broker and Redis (DESIGN §7): two detector workers share a consumer group;
 * one is killed (SIGKILL) mid-stream; its partitions move to the other, which restores the agents' state
 * from Redis. Every loop that began before the kill is still caught at the right count, and no step is
 * processed twice into a second, different deviation: the deviations seen are exactly those of one
 * uninterrupted run (redelivered duplicates carry the same eventId).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { requireKafka, uniqueTestName, until } from '@wayfinder/testing';

const AGENTS = 40;
/** openclaw thresholds (10/20): a poll warning at the 11th call, before the kill, a critical at the 21st, after. */
const CALLS = 24;
const KILL_AFTER_STEP = 24;
const root = join(__dirname, '..', '..', '..', '..');
const TENANT = uniqueTestName('tenant');

function agentSteps(agent: number): LocalizedStep[] {
  const agentId = `agent-${agent}`;
  const out: LocalizedStep[] = [];
  let seq = 0;
  for (let i = 0; i < CALLS; i++) {
    for (const kind of ['action', 'observation'] as const) {
      const base = { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${seq}`, tenantId: TENANT, agentId, taskId: 'job', runId: 'r1', seq: seq++, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString() };
      const step: StepEvent = kind === 'action'
        ? { ...base, kind, action: { tool: 'job_status', args: { job: `j-${agent}` }, callId: `c${i}` } }
        : { ...base, kind, observation: { tool: 'job_status', callId: `c${i}`, ok: true, content: { state: 'pending', checkedAt: base.ts } } };
      out.push({ schema: 'wayfinder.localized.v1', eventId: step.eventId, tenantId: TENANT, ts: step.ts, step, position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' } });
    }
  }
  return out;
}

function startWorker(prefix: string, name: string): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [join(root, 'bin', 'wayfinder.js'), 'start', '--mode', 'distributed', '--services', 'detector-worker'], {
    cwd: root,
    env: { ...process.env, WAYFINDER_PROFILE: 'openclaw', WAYFINDER_PIPELINE: 'separate', WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_KAFKA_SESSION_TIMEOUT_MS: '6000', WAYFINDER_KAFKA_CLIENT_ID: name },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${log}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}


describe('detector worker failover on Kafka and Redis', () => {
  const prefix = `${uniqueTestName('failover')}.`;
  const workers: Array<ReturnType<typeof startWorker>> = [];
  let bus: KafkaBus;
  const seen: Deviation[] = [];

  beforeAll(async () => {
    const brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 4 });
    bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'failover-test' });
    bus.subscribe('wayfinder.deviations.v1', async (batch) => void seen.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await bus.start();
    workers.push(startWorker(prefix, 'worker-a'), startWorker(prefix, 'worker-b'));
    await Promise.all(workers.map((w) => w.ready));
  });

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await bus?.stop();
  });

  it('keeps every agent’s detection state across the kill and doubles nothing', async () => {
    const steps = Array.from({ length: AGENTS }, (_, a) => agentSteps(a));
    const policy = resolvePolicy({ profile: 'openclaw' });
    const reference = new DetectionEngine({ policyFor: () => ({ policy }) });
    const expected = new Map<string, Deviation>();
    for (const agent of steps) for (const l of agent) for (const d of reference.onStep(l.step)) expected.set(d.eventId, d);
    const half = KILL_AFTER_STEP;
    const expectedBeforeKill = [...expected.values()].filter((d) => d.atSeq < half).length;
    expect(expectedBeforeKill).toBeGreaterThan(0);
    expect([...expected.values()].some((d) => d.atSeq >= half)).toBe(true);

    await bus.publish('wayfinder.localized.v1', steps.flatMap((a) => a.slice(0, half)));
    await until(() => new Set(seen.map((d) => d.eventId)).size >= expectedBeforeKill, 60_000, `the ${expectedBeforeKill} deviations of the first half (seen ${seen.length}: ${JSON.stringify(seen.slice(0, 3).map((d) => [d.detector, d.level, d.count, d.atSeq]))}; expected e.g. ${JSON.stringify([...expected.values()].slice(0, 3).map((d) => [d.detector, d.level, d.count, d.atSeq]))})`);
    workers[0].child.kill('SIGKILL');
    await workers[0].exited;
    await bus.publish('wayfinder.localized.v1', steps.flatMap((a) => a.slice(half)));
    await until(() => new Set(seen.map((d) => d.eventId)).size >= expected.size, 90_000, 'every expected deviation after the failover');
    await new Promise((r) => setTimeout(r, 1_000));

    const distinct = new Map(seen.map((d) => [d.eventId, d]));
    expect([...distinct.keys()].sort()).toEqual([...expected.keys()].sort());
    const byStep = new Set([...distinct.values()].map((d) => `${d.agentId}/${d.atSeq}/${d.detector}/${d.level}`));
    expect(byStep.size).toBe(distinct.size);
    for (const d of distinct.values()) expect(d.count).toBe(expected.get(d.eventId)!.count);
  });
});
