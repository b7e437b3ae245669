/**
 * Tenant isolation of the traces (DESIGN §6, §8): two tenants whose agents send steps with the same event
 * ids, agent ids and task ids, handled in the same batches. Every hop's output carries the trace of its own
 * tenant's step, never the other tenant's — by event id (a deviation extends its step's id) and by
 * subject (a payload pointing at no message of the batch falls back to its agent) — and every per-event
 * span of a tenant's message sits in that tenant's trace.
 */
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { InProcessBus, partitionOf, type Delivered } from '@wayfinder/bus';
import { TOPICS, type Correction, type Deviation, type LocalizedStep, type StepEvent, type TopicName } from '@wayfinder/contracts';
import { startTelemetry, type Telemetry } from './telemetry.sdk';
import { SPAN_ATTRIBUTES, TracedBus } from './traced.bus';

const spans = new InMemorySpanExporter();
let telemetry: Telemetry;

beforeAll(() => {
  telemetry = startTelemetry({ serviceName: 'wayfinder-test', env: {}, spanProcessors: [new SimpleSpanProcessor(spans)] });
});
afterAll(() => telemetry.shutdown());

const TS = '2026-01-01T00:00:00.000Z';
const HOPS: TopicName[] = ['wayfinder.steps.v1', 'wayfinder.localized.v1', 'wayfinder.deviations.v1', 'wayfinder.corrections.v1'];
/** A second tenant whose agent lands on acme's agent's partition on every hop: their messages share batches. */
const twin = Array.from({ length: 10_000 }, (_, i) => `globex-${i}`).find((t) => HOPS.every((h) => partitionOf(`${t}:shared`, TOPICS[h].partitions) === partitionOf('acme:shared', TOPICS[h].partitions)));
const TENANTS = ['acme', twin as string];

function step(tenantId: string, seq: number): StepEvent {
  // The same ids in both tenants: only the tenant tells them apart.
  return { schema: 'wayfinder.step.v1', eventId: `shared-s${seq}`, tenantId, ts: TS, agentId: 'shared', taskId: 'report', runId: 'r1', seq, kind: 'action', action: { tool: 'search_web', args: { q: 'x' } } };
}

function traceIdOf(headers: Readonly<Record<string, string>>): string | undefined {
  return /^00-([0-9a-f]{32})-[0-9a-f]{16}-0[01]$/.exec(headers['traceparent'] ?? '')?.[1];
}

describe('TracedBus with two tenants', () => {
  it('never carries or parents one tenant’s messages in the other tenant’s trace', async () => {
    expect(twin).toBeDefined();
    spans.reset();
    const bus = new TracedBus(new InProcessBus(), { eventSampleRatio: 1, system: 'in-process' });
    const deviations: Delivered<Deviation>[] = [];
    const corrections: Delivered<Correction>[] = [];
    bus.subscribe('wayfinder.steps.v1', async (batch) => {
      await bus.publish('wayfinder.localized.v1', batch.map((d): LocalizedStep => ({
        schema: 'wayfinder.localized.v1', eventId: d.payload.eventId, tenantId: d.payload.tenantId, ts: TS, step: d.payload,
        position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' },
      })));
    }, { groupId: 'state-localizer' });
    bus.subscribe('wayfinder.localized.v1', async (batch) => {
      await bus.publish('wayfinder.deviations.v1', batch.map((d): Deviation => {
        const s = d.payload.step;
        return {
          schema: 'wayfinder.deviation.v1', eventId: `${s.eventId}:generic_repeat:warning`, tenantId: s.tenantId, ts: TS, agentId: s.agentId, taskId: s.taskId,
          runId: s.runId ?? null, detector: 'generic_repeat', level: 'warning', count: 11, atSeq: s.seq, loopStartSeq: 0, evidence: {}, message: 'repeat',
        };
      }));
    }, { groupId: 'detector-worker' });
    bus.subscribe('wayfinder.deviations.v1', async (batch) => {
      deviations.push(...batch);
      // Citing no deviation of the batch: the cause is found by the agent, which both tenants share by id.
      await bus.publish('wayfinder.corrections.v1', batch.map((d): Correction => ({
        schema: 'wayfinder.correction.v1', eventId: `corr-${d.payload.atSeq}`, tenantId: d.payload.tenantId, ts: TS, agentId: d.payload.agentId, taskId: d.payload.taskId,
        runId: d.payload.runId, deviationIds: ['not-in-this-batch'], severity: 'mild', atSeq: d.payload.atSeq, reason: 'loop', action: 'hint', hint: { text: 'stop' },
      })));
    }, { groupId: 'correction-engine' });
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch), { groupId: 'agent' });

    // One step per tenant and seq, each its own trace; acme's first, so a lookup by id alone finds globex's.
    const traceOf = new Map<string, string>();
    for (let seq = 1; seq <= 2; seq++) {
      for (const tenantId of TENANTS) {
        await bus.publish('wayfinder.steps.v1', [step(tenantId, seq)]);
        const send = spans.getFinishedSpans().filter((s) => s.name === 'send wayfinder.steps.v1').at(-1)!;
        traceOf.set(`${tenantId}/${seq}`, send.spanContext().traceId);
      }
    }
    expect(new Set(traceOf.values()).size).toBe(4);
    await bus.start();
    for (let i = 0; i < 500 && corrections.length < 4; i++) await new Promise((r) => setTimeout(r, 5));
    await bus.stop();

    // Both tenants' messages were handled in the same batches.
    const firstHop = spans.getFinishedSpans().filter((s) => s.name === 'process wayfinder.steps.v1');
    expect(firstHop.map((s) => s.attributes[SPAN_ATTRIBUTES.batchCount])).toEqual([4]);
    expect(deviations).toHaveLength(4);
    expect(corrections).toHaveLength(4);
    for (const d of deviations) expect(traceIdOf(d.headers)).toBe(traceOf.get(`${d.payload.tenantId}/${d.payload.atSeq}`));
    // By subject the cause is the agent's latest message of its own tenant in the batch.
    for (const c of corrections) {
      const own = [...traceOf].filter(([k]) => k.startsWith(`${c.payload.tenantId}/`)).map(([, t]) => t);
      expect(own).toContain(traceIdOf(c.headers));
    }
    // Every per-event span of a tenant's message is in one of that tenant's traces.
    const tenantTraces = (tenantId: string) => new Set([...traceOf].filter(([k]) => k.startsWith(`${tenantId}/`)).map(([, t]) => t));
    const events = spans.getFinishedSpans().filter((s) => s.name.endsWith(' event'));
    expect(events.length).toBeGreaterThanOrEqual(16);
    for (const event of events) {
      const tenantId = event.attributes[SPAN_ATTRIBUTES.tenant] as string;
      expect(TENANTS).toContain(tenantId);
      expect(tenantTraces(tenantId).has(event.spanContext().traceId)).toBe(true);
    }
  });
});
