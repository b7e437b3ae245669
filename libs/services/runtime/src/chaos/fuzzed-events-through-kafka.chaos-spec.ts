/**
 * Chaos 5 (issue 14): 100,000 fuzzed events (wrong types, huge strings, unicode, missing fields, an empty
 * or foreign-shaped tenant, ':' and '%' in ids, not JSON at all), 30% through the gateway's HTTP
 * `POST /v1/steps` (with the tenants' keys) and the rest straight onto wayfinder.steps.v1, through the
 * state localizer and the detector worker on the real broker and Redis. No process exits; every bad event
 * is rejected by the gateway with its reason or is in the DLQ with its reason; valid + rejected +
 * dead-lettered = sent.
 */
import { decodePayload, KafkaBus, createTopics } from '@wayfinder/bus';
import { chaosFigures, deleteTestTopics, freePort, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, until, type ServiceProcess } from '@wayfinder/testing';

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

/** The gateway's tenants (a key's tenant is what precedes the first ':' of WAYFINDER_API_KEYS, so no ':' here). */
const GATEWAY_TENANTS = ['fuzz%gw0', 'fuzz%gw1', 'fuzz%gw2'];
const GATEWAY_KEYS = GATEWAY_TENANTS.map((t, i) => `chaos-fuzz-key-${i}-${'k'.repeat(16)}`);

interface Fuzzed {
  key: string;
  value: Buffer;
  /** Through the gateway (with this tenant's key), else straight onto the topic. */
  gateway?: number;
}

function fuzzedEvents(): Fuzzed[] {
  const random = prng(14);
  const seqs = new Map<number, number>();
  const out: Fuzzed[] = [];
  for (let i = 0; i < SENT; i++) {
    const agent = Math.floor(random() * AGENTS);
    const seq = seqs.get(agent) ?? 0;
    seqs.set(agent, seq + 1);
    // Three events in ten go through the gateway, as an agent's SDK sends them.
    const gateway = i % 10 < 3 ? agent % 3 : undefined;
    const tenantId = gateway === undefined ? `fuzz:t%${agent % 3}` : GATEWAY_TENANTS[gateway];
    const base = { schema: 'wayfinder.step.v1', eventId: `e:${i}`, tenantId, agentId: `a:${agent}%`, taskId: `task:${agent % TASKS}`, runId: 'r:1', seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString() };
    const key = `${tenantId}:a:${agent}%`;
    let value: unknown;
    switch (i % 12) {
      case 0: value = { ...base, kind: 'action', action: { tool: 'search:web', args: { q: `q ${i % 7}`, 'k:%': [1, null, true] } } }; break;
      case 1: value = { ...base, kind: 'observation', observation: { tool: 'search:web', ok: true, content: '北京 café — naïve ✓ 🚀 \u202e mixed' } }; break;
      case 2: value = { ...base, kind: 'message', message: { role: 'assistant', type: 'output', text: i % 500 === 2 ? 'x'.repeat(100_000) : `thinking ${i % 5}` } }; break;
      case 3: out.push({ key, value: Buffer.from([0xff, 0xfe, 0x7b, 0x00, i & 0xff]), gateway }); continue;
      case 4: value = { ...base, seq: String(seq), kind: 'action', action: { tool: 't', args: {} } }; break;
      case 5: { const { tenantId: _dropped, ...rest } = base; value = { ...rest, kind: 'action', action: { tool: 't', args: {} } }; break; }
      case 6: value = { ...base, kind: 'teleport', teleport: { to: 'mars' } }; break;
      case 7: value = { ...base, agentId: 'a'.repeat(200), kind: 'action', action: { tool: 't', args: {} } }; break;
      case 8: value = { ...base, tenantId: i % 2 ? '' : { id: 'other-tenant' }, kind: 'action', action: { tool: 't', args: {} } }; break;
      case 9: value = [null, 1, 'step'][i % 3]; break;
      case 10: value = { ...base, kind: 'action', action: { tool: 't', args: i % 1000 === 10 ? { blob: 'y'.repeat(70_000) } : { n: Number.NaN } } }; break;
      default: out.push({ key, value: Buffer.alloc(0), gateway }); continue;
    }
    out.push({ key, value: Buffer.from(JSON.stringify(value), 'utf8'), gateway });
  }
  return out;
}

interface GatewayFigures {
  accepted: Set<string>;
  /** One reason per rejected event (the item's error, or the whole request's status and error). */
  rejected: string[];
}

/**
 * Sends the gateway's share as an SDK would: NDJSON batches per tenant (at most ~2 MB, 400 lines), and
 * alone what would refuse or void a whole request (not JSON, empty, a foreign-shaped tenant), so every
 * event's fate is known: accepted (202, not in `rejected[]`) or rejected with its reason. 429 waits for
 * Retry-After and sends the same request again.
 */
async function sendThroughGateway(url: string, events: Fuzzed[]): Promise<GatewayFigures> {
  const figures: GatewayFigures = { accepted: new Set(), rejected: [] };
  const post = async (tenant: number, items: Fuzzed[]): Promise<void> => {
    const body = Buffer.concat(items.flatMap((e, i) => (i === 0 ? [e.value] : [Buffer.from('\n'), e.value])));
    for (;;) {
      const response = await fetch(`${url}/v1/steps`, {
        method: 'POST',
        headers: { authorization: `Bearer ${GATEWAY_KEYS[tenant]}`, 'content-type': items.length > 1 ? 'application/x-ndjson' : 'application/json' },
        body,
      });
      const text = await response.text();
      if (response.status === 429) {
        await new Promise((r) => setTimeout(r, Math.max(50, Number(response.headers.get('retry-after') ?? '1') * 1000)));
        continue;
      }
      if (response.status === 202) {
        const answer = JSON.parse(text) as { accepted: number; rejected: Array<{ index: number; error: string }> };
        const rejected = new Set(answer.rejected.map((r) => r.index));
        for (const r of answer.rejected) figures.rejected.push(r.error);
        items.forEach((e, i) => {
          if (!rejected.has(i)) figures.accepted.add((JSON.parse(e.value.toString('utf8')) as { eventId: string }).eventId);
        });
        expect(answer.accepted).toBe(items.length - rejected.size);
        return;
      }
      // A whole request refused (one event in it): rejected with the status and the reason it names.
      expect(items).toHaveLength(1);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      figures.rejected.push(`${response.status} ${text}`);
      return;
    }
  };
  // Alone: what a batch could not carry item by item (not JSON, empty, a tenant other than the key's).
  const alone = (e: Fuzzed, tenant: number) => {
    if (e.value.length === 0) return true;
    try {
      const parsed = JSON.parse(e.value.toString('utf8')) as unknown;
      return !!parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'tenantId' in parsed && (parsed as { tenantId?: unknown }).tenantId !== GATEWAY_TENANTS[tenant];
    } catch {
      return true;
    }
  };
  const requests: Array<[number, Fuzzed[]]> = [];
  for (let tenant = 0; tenant < GATEWAY_TENANTS.length; tenant++) {
    let batch: Fuzzed[] = [];
    let bytes = 0;
    for (const e of events.filter((x) => x.gateway === tenant)) {
      if (alone(e, tenant)) {
        requests.push([tenant, [e]]);
        continue;
      }
      if (batch.length >= 400 || bytes + e.value.length > 2_000_000) {
        requests.push([tenant, batch]);
        batch = [];
        bytes = 0;
      }
      batch.push(e);
      bytes += e.value.length + 1;
    }
    if (batch.length > 0) requests.push([tenant, batch]);
  }
  // A few requests in flight, as a fleet's SDKs would have.
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < requests.length) {
      const [tenant, items] = requests[next++];
      await post(tenant, items);
    }
  }));
  return figures;
}

describe('chaos: 100,000 fuzzed events through the gateway and Kafka', () => {
  const prefix = `${uniqueTestName('chaos-fuzz')}.`;
  let brokers: string[];
  let bus: KafkaBus;
  let services: ServiceProcess | undefined;
  let gateway: ServiceProcess | undefined;
  const localized = new Set<string>();
  let localizedTotal = 0;
  // Distinct dead-lettered events by their source offset: a batch redelivered after a rebalance under load
  // dead-letters its bad events again (at least once), which is a duplicate, not another event.
  const dlq = new Map<string, string>();
  let dlqMessages = 0;
  let badDownstream = 0;

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 4 });
    bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'chaos-fuzz-test' });
    bus.subscribe('wayfinder.localized.v1', async (batch) => {
      localizedTotal += batch.length;
      for (const d of batch) localized.add(d.payload.eventId);
    }, { groupId: 'observer', maxBatchSize: 2_000 });
    bus.subscribeRaw('wayfinder.steps.v1.dlq', async (batch) => {
      dlqMessages += batch.length;
      for (const d of batch) dlq.set(`${d.headers['wf-dlq-source-partition']}/${d.headers['wf-dlq-source-offset']}`, d.headers['wf-dlq-error'] ?? '');
    }, { groupId: 'observer-dlq', maxBatchSize: 2_000 });
    bus.subscribeRaw('wayfinder.localized.v1.dlq', async (batch) => void (badDownstream += batch.length), { groupId: 'observer-dlq2' });
    await bus.start();
  });

  afterAll(async () => {
    if (gateway) await stopServiceProcess(gateway);
    if (services) await stopServiceProcess(services);
    await bus?.stop();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('rejects or dead-letters every bad event with its reason, processes every valid one, and no process exits', async () => {
    process.stdout.write(`fuzz start\n`);
    services = startServiceProcess('state-localizer,detector-worker', { WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_LOCALIZER_HOLD_MS: '200' }, 'chaos-fuzz-services');
    const port = await freePort();
    gateway = startServiceProcess('gateway', {
      WAYFINDER_TOPIC_PREFIX: prefix,
      WAYFINDER_GATEWAY_PORT: String(port),
      WAYFINDER_API_KEYS: GATEWAY_TENANTS.map((t, i) => `${t}:${GATEWAY_KEYS[i]}`).join(','),
    }, 'chaos-fuzz-gateway');
    await Promise.all([services.ready, gateway.ready]);
    const events = fuzzedEvents();
    const direct = events.filter((e) => e.gateway === undefined);
    // The product's own decoder says which of the direct events are valid: the figures must add up to what was sent.
    const valid = new Set<string>();
    for (const e of direct) {
      const decoded = decodePayload('wayfinder.steps.v1', e.value);
      if (decoded.ok) valid.add(decoded.payload.eventId);
    }
    expect(valid.size).toBeGreaterThan(direct.length / 5);
    expect(valid.size).toBeLessThan(direct.length / 2);
    const t0 = Date.now();
    const viaGateway = sendThroughGateway(`http://127.0.0.1:${port}`, events);
    for (let i = 0; i < direct.length; i += 2_000) {
      await Promise.all(direct.slice(i, i + 2_000).map((e) => bus.publishRaw('wayfinder.steps.v1', e.key, e.value)));
    }
    const gatewayFigures = await viaGateway;
    process.stdout.write(`fuzz gateway: ${events.length - direct.length} sent, ${gatewayFigures.accepted.size} accepted, ${gatewayFigures.rejected.length} rejected in ${Date.now() - t0} ms\n`);
    expect(gatewayFigures.accepted.size + gatewayFigures.rejected.length).toBe(events.length - direct.length);
    expect(gatewayFigures.accepted.size).toBeGreaterThan(0);
    expect(gatewayFigures.rejected.every((r) => r.length > 0)).toBe(true);
    for (const id of gatewayFigures.accepted) valid.add(id);
    const progress = setInterval(() => process.stdout.write(`fuzz ${Date.now() - t0} ms: localized ${localized.size}/${valid.size}, dlq ${dlq.size}\n`), 10_000);
    const invalid = direct.length - (valid.size - gatewayFigures.accepted.size);
    await until(() => localized.size >= valid.size && dlq.size >= invalid, 150_000, `every event accounted for (valid ${localized.size}/${valid.size}, dead-lettered ${dlq.size}/${invalid})`, 200).catch((error: Error) => {
      throw new Error(`${error.message}\nservices' log (tail):\n${services!.log().slice(-4_000)}`);
    });
    clearInterval(progress);
    const notable = services.log().split('\n').filter((l) => /error|paused|warn/i.test(l));
    if (notable.length > 0) process.stdout.write(`services logged ${notable.length} notable line(s), e.g.:\n${notable.slice(0, 5).join('\n')}\n`);
    await new Promise((r) => setTimeout(r, 1_000));

    chaosFigures('100,000 fuzzed events through the gateway and Kafka', {
      sent: SENT,
      processed: localized.size,
      duplicated: localizedTotal - localized.size + dlqMessages - dlq.size,
      lost: [...valid].filter((id) => !localized.has(id)).length,
      deadLettered: dlq.size,
    });
    process.stdout.write(`fuzz: rejected by the gateway ${gatewayFigures.rejected.length}, e.g. ${JSON.stringify(gatewayFigures.rejected.slice(0, 3))}\n`);
    expect(services.child.exitCode).toBeNull();
    expect(gateway!.child.exitCode).toBeNull();
    expect([...valid].every((id) => localized.has(id))).toBe(true);
    expect(localized.size).toBe(valid.size);
    expect(localized.size + gatewayFigures.rejected.length + dlq.size).toBe(SENT);
    expect([...dlq.values()].every((r) => /^(invalid JSON|invalid message|schema violation)/.test(r))).toBe(true);
    expect(badDownstream).toBe(0);
  }, 240_000);
});
