/**
 * Issue #28's acceptance on the broker: every conformance case and a generated fleet of loops, drifts and
 * healthy agents, published to wayfinder.steps.v1, give the Kafka runtime — the one-pass navigator and the
 * separate stage services — exactly the deviations and corrections (ids, seqs, rungs, texts) a replay
 * through the domain's Navigator gives (what `wayfinder replay` and the SDK guard run; the guard and the
 * embedded runtime are compared on the same files in libs/sdk/src/guard/guard-matches-fleet.spec.ts).
 */
import type { Correction, Deviation } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { embedderChoices, PolicyBook, PROFILES } from '@wayfinder/detection';
import { createEmbeddingCache } from '@wayfinder/onnx-embedders';
import { parseTask } from '@wayfinder/cognitive-map';
import { createNavigator } from '@wayfinder/navigation';
import { conformanceSteps, demoFleetSteps, generatedFleetSteps, requireKafka, uniqueTestName, until, type StepFile } from '@wayfinder/testing';
import { LOCALIZER_HOLD } from '@wayfinder/service-state-localizer';
import { startServices } from './runtime';

interface Decisions {
  deviations: string[];
  corrections: string[];
}

const deviationLine = (d: Deviation) => `${d.tenantId}/${d.agentId}@${d.atSeq} ${d.detector} ${d.level} ${d.eventId}`;
/** The whole correction but its wall-clock `ts`: ids, seq, rung, severity and the text the agent reads. */
const correctionLine = (c: Correction) => `${c.tenantId}/${c.agentId}@${c.atSeq} ${JSON.stringify({ ...c, ts: undefined })}`;

function decisions(deviations: Deviation[], corrections: Correction[]): Decisions {
  return { deviations: [...new Set(deviations.map(deviationLine))].sort(), corrections: [...new Set(corrections.map(correctionLine))].sort() };
}

/**
 * What `wayfinder replay --corrections` decides: the domain's Navigator, step by step, with the services'
 * default policy and the embedders it chooses (as apps/cli's prepareNavigation and the runtime load them).
 */
async function replayed(file: StepFile): Promise<Decisions> {
  const policies = new PolicyBook('balanced');
  const vectors = await createEmbeddingCache(embedderChoices(PROFILES.balanced));
  const navigator = createNavigator({ policy: (s) => policies.policyOf(s.tenantId, s.taskId, s.agentId), corrections: true, vectors });
  for (const task of file.tasks) {
    const parsed = parseTask(task);
    if (parsed.ok) navigator.setMap(task.tenantId, parsed.value);
  }
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];
  for (const step of file.steps) {
    await navigator.prepare([step]);
    const result = navigator.onStep(step);
    deviations.push(...result.deviations);
    corrections.push(...result.corrections);
  }
  return decisions(deviations, corrections);
}

/** The separate state localizer's hold of steps whose task has no map (the conformance cases post none), short here. */
const HOLD_MS = 1_000;

/** Waits until `group` has committed, over the topic's partitions, at least `total()` messages. */
async function committed(admin: Admin, group: string, topic: string, total: () => Promise<number>): Promise<void> {
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
    const [offsets] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    const done = offsets.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
    const wanted = await total();
    if (done >= wanted) return;
    if (Date.now() - started > 120_000) throw new Error(`timed out waiting for ${group} to commit ${wanted} messages of ${topic} (${done})`);
  }
}

async function onKafka(brokers: string[], pipeline: 'one-pass' | 'separate', name: string, file: StepFile): Promise<Decisions> {
  const prefix = `${uniqueTestName(`same-${name}-${pipeline}`)}.`;
  await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 3 });
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];
  const observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
  observer.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
  observer.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
  await observer.start();
  const config = loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_PIPELINE: pipeline, WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_LOCALIZER_HOLD_MS: String(HOLD_MS) });
  const running = await startServices(config, { logger: false });
  const admin = new Kafka({ clientId: 'same-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  try {
    if (file.tasks.length > 0) {
      await running.bus.publish('wayfinder.tasks.v1', file.tasks);
      await until(async () => (await Promise.all(file.tasks.map((t) => running.mapStore.get(t.tenantId, t.taskId)))).every(Boolean), 30_000, 'the maps');
    }
    // In rounds, as agents report: batches interleave the agents, each agent's steps in order (keyed by agent).
    for (let from = 0; from < file.steps.length; from += 200) await running.bus.publish('wayfinder.steps.v1', file.steps.slice(from, from + 200));
    // Every step consumed, and committed only after its batch was handled, by the stage that reads the
    // steps topic; separate, then every localized step committed by the detector worker.
    const first = pipeline === 'one-pass' ? 'navigator' : 'state-localizer';
    await committed(admin, `${prefix}${config.groupPrefix}.${first}`, `${prefix}wayfinder.steps.v1`, async () => file.steps.length);
    if (pipeline === 'separate') {
      await new Promise((r) => setTimeout(r, HOLD_MS + 2 * LOCALIZER_HOLD.sweepMs)); // the hold of steps whose task has no map is over
      const localizedTopic = `${prefix}wayfinder.localized.v1`;
      const published = async () => (await admin.fetchTopicOffsets(localizedTopic)).reduce((n, p) => n + Number(p.high), 0);
      await committed(admin, `${prefix}${config.groupPrefix}.detector-worker`, localizedTopic, published);
    }
    // Decisions settle: nothing new for 3 s.
    for (let last = -1; deviations.length + corrections.length !== last; ) {
      last = deviations.length + corrections.length;
      await new Promise((r) => setTimeout(r, 3_000));
    }
    return decisions(deviations, corrections);
  } finally {
    await running.stop();
    await observer.stop();
    await admin.disconnect().catch(() => undefined);
  }
}

const FILES: Array<[string, () => StepFile]> = [
  ['conformance', conformanceSteps],
  ['fleet', () => generatedFleetSteps()],
  ['demo-fleet', () => demoFleetSteps()],
];

describe('the Kafka runtime, one-pass and separate, decides as a replay does', () => {
  it.each(FILES)('on the %s steps: the same deviations and corrections', async (name, input) => {
    const brokers = await requireKafka();
    const file = input();
    const replay = await replayed(file);
    expect(replay.corrections.length).toBeGreaterThan(3);
    const onePass = await onKafka(brokers, 'one-pass', name, file);
    expect(onePass.deviations).toEqual(replay.deviations);
    expect(onePass.corrections).toEqual(replay.corrections);
    const separate = await onKafka(brokers, 'separate', name, file);
    expect(separate.deviations).toEqual(replay.deviations);
    expect(separate.corrections).toEqual(replay.corrections);
  }, 300_000);
});
