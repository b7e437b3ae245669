/**
 * Chaos 5 (issue 14): 100,000 fuzzed events on wayfinder.steps.v1 (wrong types, huge strings, unicode,
 * missing fields, an empty or foreign-shaped tenant, ':' and '%' in ids, not JSON at all) through the
 * state localizer and the detector worker on the real broker and Redis. No process exits; every bad
 * event is in the DLQ with its reason; valid + dead-lettered = sent.
 */
import { decodePayload, KafkaBus, createTopics } from '@wayfinder/bus';
import { chaosFigures, deleteTestTopics, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, until, type ServiceProcess } from '@wayfinder/testing';

const SENT = 100_000;
const AGENTS = 2_000;
const TASKS = 20;

/** A small deterministic generator: the same fuzz on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fuzzedEvents(): Array<{ key: string; value: Buffer }> {
  const random = prng(14);
  const seqs = new Map<number, number>();
  const out: Array<{ key: string; value: Buffer }> = [];
  for (let i = 0; i < SENT; i++) {
    const agent = Math.floor(random() * AGENTS);
    const seq = seqs.get(agent) ?? 0;
    seqs.set(agent, seq + 1);
    const tenantId = `fuzz:t%${agent % 3}`;
    const base = { schema: 'wayfinder.step.v1', eventId: `e:${i}`, tenantId, agentId: `a:${agent}%`, taskId: `task:${agent % TASKS}`, runId: 'r:1', seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString() };
    const key = `${tenantId}:a:${agent}%`;
    let value: unknown;
    switch (i % 12) {
      case 0: value = { ...base, kind: 'action', action: { tool: 'search:web', args: { q: `q ${i % 7}`, 'k:%': [1, null, true] } } }; break;
      case 1: value = { ...base, kind: 'observation', observation: { tool: 'search:web', ok: true, content: '北京 café — naïve ✓ 🚀 \u202e mixed' } }; break;
      case 2: value = { ...base, kind: 'message', message: { role: 'assistant', type: 'output', text: i % 500 === 2 ? 'x'.repeat(100_000) : `thinking ${i % 5}` } }; break;
      case 3: out.push({ key, value: Buffer.from([0xff, 0xfe, 0x7b, 0x00, i & 0xff]) }); continue;
      case 4: value = { ...base, seq: String(seq), kind: 'action', action: { tool: 't', args: {} } }; break;
      case 5: { const { tenantId: _dropped, ...rest } = base; value = { ...rest, kind: 'action', action: { tool: 't', args: {} } }; break; }
      case 6: value = { ...base, kind: 'teleport', teleport: { to: 'mars' } }; break;
      case 7: value = { ...base, agentId: 'a'.repeat(200), kind: 'action', action: { tool: 't', args: {} } }; break;
      case 8: value = { ...base, tenantId: i % 2 ? '' : { id: 'other-tenant' }, kind: 'action', action: { tool: 't', args: {} } }; break;
      case 9: value = [null, 1, 'step'][i % 3]; break;
      case 10: value = { ...base, kind: 'action', action: { tool: 't', args: i % 1000 === 10 ? { blob: 'y'.repeat(70_000) } : { n: Number.NaN } } }; break;
      default: out.push({ key, value: Buffer.alloc(0) }); continue;
    }
    out.push({ key, value: Buffer.from(JSON.stringify(value), 'utf8') });
  }
  return out;
}

describe('chaos: 100,000 fuzzed events through Kafka', () => {
  const prefix = `${uniqueTestName('chaos-fuzz')}.`;
  let brokers: string[];
  let bus: KafkaBus;
  let services: ServiceProcess | undefined;
  const localized = new Set<string>();
  let localizedTotal = 0;
  const dlqReasons: string[] = [];
  let badDownstream = 0;

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 4 });
    bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'chaos-fuzz-test' });
    bus.subscribe('wayfinder.localized.v1', async (batch) => {
      localizedTotal += batch.length;
      for (const d of batch) localized.add(d.payload.eventId);
    }, { groupId: 'observer', maxBatchSize: 2_000 });
    bus.subscribeRaw('wayfinder.steps.v1.dlq', async (batch) => void dlqReasons.push(...batch.map((d) => d.headers['wf-dlq-error'] ?? '')), { groupId: 'observer-dlq', maxBatchSize: 2_000 });
    bus.subscribeRaw('wayfinder.localized.v1.dlq', async (batch) => void (badDownstream += batch.length), { groupId: 'observer-dlq2' });
    await bus.start();
  });

  afterAll(async () => {
    if (services) await stopServiceProcess(services);
    await bus?.stop();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('dead-letters every bad event with its reason, processes every valid one, and no process exits', async () => {
    process.stdout.write(`fuzz start\n`);
    services = startServiceProcess('state-localizer,detector-worker', { WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_LOCALIZER_HOLD_MS: '200' }, 'chaos-fuzz-services');
    await services.ready;
    const events = fuzzedEvents();
    // The product's own decoder says which are valid: the figures must add up to what was sent.
    const valid = new Set<string>();
    for (const e of events) {
      const decoded = decodePayload('wayfinder.steps.v1', e.value);
      if (decoded.ok) valid.add(decoded.payload.eventId);
    }
    expect(valid.size).toBeGreaterThan(SENT / 5);
    expect(valid.size).toBeLessThan(SENT / 2);
    const t0 = Date.now();
    for (let i = 0; i < events.length; i += 2_000) {
      await Promise.all(events.slice(i, i + 2_000).map((e) => bus.publishRaw('wayfinder.steps.v1', e.key, e.value)));
    }
    const progress = setInterval(() => process.stdout.write(`fuzz ${Date.now() - t0} ms: localized ${localized.size}/${valid.size}, dlq ${dlqReasons.length}\n`), 10_000);
    const invalid = SENT - valid.size;
    await until(() => localized.size >= valid.size && dlqReasons.length >= invalid, 150_000, `every event accounted for (valid ${localized.size}/${valid.size}, dead-lettered ${dlqReasons.length}/${invalid})`, 200).catch((error: Error) => {
      throw new Error(`${error.message}\nservices' log (tail):\n${services!.log().slice(-4_000)}`);
    });
    clearInterval(progress);
    const notable = services.log().split('\n').filter((l) => /error|paused|warn/i.test(l));
    if (notable.length > 0) process.stdout.write(`services logged ${notable.length} notable line(s), e.g.:\n${notable.slice(0, 5).join('\n')}\n`);
    await new Promise((r) => setTimeout(r, 1_000));

    chaosFigures('100,000 fuzzed events through Kafka', {
      sent: SENT,
      processed: localized.size,
      duplicated: localizedTotal - localized.size,
      lost: [...valid].filter((id) => !localized.has(id)).length,
      deadLettered: dlqReasons.length,
    });
    expect(services.child.exitCode).toBeNull();
    expect([...valid].every((id) => localized.has(id))).toBe(true);
    expect(localized.size + dlqReasons.length).toBe(SENT);
    expect(dlqReasons.every((r) => /^(invalid JSON|invalid message|schema violation)/.test(r))).toBe(true);
    expect(badDownstream).toBe(0);
  }, 240_000);
});
