/**
 * Issue #28: the one-pass navigator (the domain's per-agent Navigator in one consumer of the steps topic)
 * decides exactly as the separate services (each stage consuming its input topic) and as a replay through
 * the same Navigator in process, on the real Kafka broker and Redis: for the same task and steps, the same
 * deviations and corrections (same event ids, detectors, rungs), the same history records and the same
 * memory contexts. One pass still publishes every localized step as an output, while the history recorder
 * and memory service beside it never consume the localized topic (they read the steps in process). With
 * WAYFINDER_LOCALIZED_OUTPUT=none it decides and records the same with nothing on the localized topic.
 */
import type { Correction, Deviation, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { Kafka, logLevel } from 'kafkajs';
import { requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { PolicyBook } from '@wayfinder/detection';
import { createNavigator } from '@wayfinder/navigation';
import { startServices } from './runtime';

// Now: the history keeps records for a retention window from the present (an old ts would be trimmed at once).
const ts = new Date().toISOString();
const TENANTS = ['acme', 'globex'];

/** Agents looping from different points (and two healthy ones): several rungs of the ladder, on both tenants. */
function stepsOf(tenantId: string, agent: number): StepEvent[] {
  const agentId = `agent-${agent}`;
  const loopFrom = agent < 2 ? Number.POSITIVE_INFINITY : 2 * (agent % 4);
  const out: StepEvent[] = [];
  for (let seq = 0; seq < 40; seq++) {
    const call = Math.floor(seq / 2);
    const looping = seq >= loopFrom;
    const base = { schema: 'wayfinder.step.v1' as const, eventId: `${tenantId}-${agentId}-${seq}`, tenantId, agentId, taskId: 'report', runId: 'r1', seq, ts };
    out.push(
      seq % 2 === 0
        ? { ...base, kind: 'action', action: { tool: 'read_file', args: { path: looping ? '/data/locked.csv' : `/data/part-${call}.csv` }, callId: `c${call}` } }
        : {
            ...base, kind: 'observation',
            observation: looping ? { tool: 'read_file', callId: `c${call}`, ok: false, error: 'EACCES: permission denied' } : { tool: 'read_file', callId: `c${call}`, ok: true, content: `rows of part ${call}: ${call * 7919}` },
          },
    );
  }
  return out;
}

interface Outcome {
  localized: number;
  deviations: string[];
  corrections: string[];
  /** Offsets the detector worker's, correction engine's, history recorder's and memory service's groups committed on the localized topic. */
  stageCommitsOnLocalized: number;
  /** Per agent, the ids of the history's step records. */
  historySteps: string[];
  /** Per agent, the memory service's assembled context (STATE, checkpoints, milestone). */
  contexts: string[];
}

const MEMORY_KEYS: Record<string, string> = { 'key-acme': 'acme', 'key-globex': 'globex' };

async function contextOf(url: string, tenantId: string, agentId: string): Promise<string> {
  const key = Object.keys(MEMORY_KEYS).find((k) => MEMORY_KEYS[k] === tenantId);
  const response = await fetch(`${url}/v1/tenants/${tenantId}/agents/${agentId}/tasks/report/context`, { headers: { authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`context of ${tenantId}/${agentId}: HTTP ${response.status} ${await response.text()}`);
  return `${tenantId}/${agentId} ${await response.text()}`;
}

async function run(brokers: string[], pipeline: 'one-pass' | 'separate', localizedOutput: 'publish' | 'none' = 'publish'): Promise<Outcome> {
  const prefix = `${uniqueTestName(`fuse-${pipeline}-${localizedOutput}`)}.`;
  await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 3 });
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];
  let localized = 0;
  const observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
  observer.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
  observer.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
  observer.subscribe('wayfinder.localized.v1', async (batch) => void (localized += batch.length), { groupId: 'observer' });
  await observer.start();
  const config = loadConfig({
    WAYFINDER_MODE: 'distributed',
    WAYFINDER_PIPELINE: pipeline,
    WAYFINDER_LOCALIZED_OUTPUT: localizedOutput,
    WAYFINDER_KAFKA_BROKERS: brokers.join(','),
    WAYFINDER_TOPIC_PREFIX: prefix,
    WAYFINDER_MEMORY_API_KEYS: JSON.stringify(MEMORY_KEYS),
  });
  const running = await startServices(config, { logger: false });
  const admin = new Kafka({ clientId: 'fuse-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  try {
    for (const tenantId of TENANTS) {
      const task: TaskSpec = { schema: 'wayfinder.task.v1', eventId: `task-${tenantId}`, tenantId, ts, taskId: 'report', goal: 'read every part of the sales data -> compute totals -> write the report' };
      await running.bus.publish('wayfinder.tasks.v1', [task]);
    }
    for (const started = Date.now(); !(await Promise.all(TENANTS.map((t) => running.mapStore.get(t, 'report')))).every(Boolean); ) {
      if (Date.now() - started > 30_000) throw new Error('timed out waiting for the maps');
      await new Promise((r) => setTimeout(r, 100));
    }
    const all = TENANTS.flatMap((t) => Array.from({ length: 8 }, (_, a) => stepsOf(t, a)));
    // In rounds of a few steps per agent, as agents report: the batches interleave the agents.
    for (let from = 0; from < 40; from += 8) await running.bus.publish('wayfinder.steps.v1', all.flatMap((s) => s.slice(from, from + 8)));
    const total = all.reduce((n, s) => n + s.length, 0);
    const agents = all.map((steps) => steps[0]!);
    const historySteps = async () =>
      (await Promise.all(agents.map(async (a) => (await running.history.agentHistory(a.tenantId, a.agentId, { kinds: ['step'], limit: 1_000 })).map((r) => `${a.tenantId}/${r.id}`)))).flat().sort();
    // Every step recorded by the history recorder (whether it read them from the broker or in process).
    for (const started = Date.now(); (await historySteps()).length < total; await new Promise((r) => setTimeout(r, 250))) {
      if (Date.now() - started > 60_000) throw new Error(`timed out waiting for the history: ${(await historySteps()).length} of ${total} steps`);
    }
    if (localizedOutput === 'publish') await until(() => localized >= total, 60_000, 'every localized step');
    // Decisions settle: nothing new for 3 s.
    for (let last = -1; deviations.length + corrections.length !== last || last === 0; ) {
      last = deviations.length + corrections.length;
      await new Promise((r) => setTimeout(r, 3_000));
    }
    const stageCommitsOnLocalized = (
      await Promise.all(
        ['detector-worker', 'correction-engine', 'history-recorder', 'memory-service'].map(async (s) => {
          const [offsets] = await admin.fetchOffsets({ groupId: `${prefix}${config.groupPrefix}.${s}`, topics: [`${prefix}wayfinder.localized.v1`] });
          return offsets.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
        }),
      )
    ).reduce((a, b) => a + b, 0);
    // The memory service's trails are written before the steps commit (one-pass: in process) or its own batch (separate).
    for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
      const [group, topic] = pipeline === 'separate' ? ['memory-service', 'localized'] : ['navigator', 'steps'];
      const [offsets] = await admin.fetchOffsets({ groupId: `${prefix}${config.groupPrefix}.${group}`, topics: [`${prefix}wayfinder.${topic}.v1`] });
      if (offsets.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0) >= total) break;
      if (Date.now() - started > 60_000) throw new Error('timed out waiting for the memory service to commit');
    }
    const contexts = await Promise.all(agents.map((a) => contextOf(running.memory!.url, a.tenantId, a.agentId)));
    return {
      historySteps: await historySteps(),
      contexts,
      localized,
      deviations: [...new Set(deviations.map((d) => `${d.tenantId}/${d.agentId}@${d.atSeq} ${d.detector} ${d.level} ${d.eventId}`))].sort(),
      corrections: [...new Set(corrections.map((c) => `${c.tenantId}/${c.agentId}@${c.atSeq} ${c.action} ${c.severity} ${c.eventId}`))].sort(),
      stageCommitsOnLocalized,
    };
  } finally {
    await running.stop();
    await observer.stop();
    await admin.disconnect().catch(() => undefined);
  }
}

/** The same steps replayed through the domain's Navigator in process (what `wayfinder replay` runs). */
function replayed(): Pick<Outcome, 'deviations' | 'corrections'> {
  const policies = new PolicyBook('balanced');
  const tasks: TaskSpec[] = TENANTS.map((tenantId) => ({ schema: 'wayfinder.task.v1', eventId: `task-${tenantId}`, tenantId, ts, taskId: 'report', goal: 'read every part of the sales data -> compute totals -> write the report' }));
  const navigator = createNavigator({ policy: (s) => policies.policyOf(s.tenantId, s.taskId, s.agentId), tasks });
  const all = TENANTS.flatMap((t) => Array.from({ length: 8 }, (_, a) => stepsOf(t, a)));
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];
  for (let from = 0; from < 40; from += 8) {
    for (const step of all.flatMap((s) => s.slice(from, from + 8))) {
      const result = navigator.onStep(step);
      deviations.push(...result.deviations);
      corrections.push(...result.corrections);
    }
  }
  return {
    deviations: deviations.map((d) => `${d.tenantId}/${d.agentId}@${d.atSeq} ${d.detector} ${d.level} ${d.eventId}`).sort(),
    corrections: corrections.map((c) => `${c.tenantId}/${c.agentId}@${c.atSeq} ${c.action} ${c.severity} ${c.eventId}`).sort(),
  };
}

describe('one-pass navigator and separate services on Kafka and Redis', () => {
  it('give the same deviations, corrections, history and memory for the same steps, as a replay does', async () => {
    const brokers = await requireKafka();
    const onePass = await run(brokers, 'one-pass');
    const separate = await run(brokers, 'separate');
    const replay = replayed();
    // The input loops: there is something to compare, and both saw every step.
    expect(separate.corrections.length).toBeGreaterThanOrEqual(12);
    expect(separate.deviations.length).toBeGreaterThanOrEqual(separate.corrections.length);
    expect(onePass.deviations).toEqual(replay.deviations);
    expect(onePass.corrections).toEqual(replay.corrections);
    expect(onePass.deviations).toEqual(separate.deviations);
    expect(onePass.corrections).toEqual(separate.corrections);
    expect(onePass.localized).toBe(separate.localized);
    // Separate, the stages read localized steps from the broker; one pass, history and memory read the navigator's output in process.
    expect(separate.stageCommitsOnLocalized).toBeGreaterThan(0);
    expect(onePass.stageCommitsOnLocalized).toBe(0);
    expect(separate.historySteps).toHaveLength(separate.localized);
    expect(onePass.historySteps).toEqual(separate.historySteps);
    expect(onePass.contexts).toEqual(separate.contexts);
    expect(separate.contexts.join('\n')).toContain('STATE');
    // Localized steps kept in the process: nothing on the topic, the same decisions and records.
    const local = await run(brokers, 'one-pass', 'none');
    expect(local.localized).toBe(0);
    expect(local.stageCommitsOnLocalized).toBe(0);
    expect(local.deviations).toEqual(separate.deviations);
    expect(local.corrections).toEqual(separate.corrections);
    expect(local.historySteps).toEqual(separate.historySteps);
    expect(local.contexts).toEqual(separate.contexts);
  }, 420_000);
});
