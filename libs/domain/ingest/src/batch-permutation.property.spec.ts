/**
 * Property (fast-check): the arrival order of a trace's span batches does not change its steps.
 * Generated runs follow the GenAI conventions: turns of an LLM span requesting 1–3 tool calls (with or
 * without call ids, arguments sometimes unrecorded), the tool spans sequential or parallel, some failing,
 * then a closing LLM message; spans exported in end order, cut into batches, the root last, and the
 * batches delivered in any order, some twice.
 * - A run shorter than the watermark delay gives exactly the same steps (ids, bodies, seq) in any order.
 * - Any run, however long: every observation and message once, no event id twice, and a step released
 *   out of event order is marked late. When none is late, the same steps by kind and tool as in order.
 *   (A span behind the watermark is late data: a call whose LLM span comes after its tool span's action
 *   went out may be paired differently, so only its late flag and the per-span steps are promised.)
 */
import fc from 'fast-check';
import type { StepEvent } from '@wayfinder/contracts';
import { OtlpNormalizer } from './normalizer';
import { exportRequest, FakeClock, spansOf, valid, type SpanSpec } from './testing/otlp-fixture';

interface TurnPlan {
  calls: { tool: string; arg: number; withId: boolean; recorded: boolean; fails: boolean; durMs: number }[];
  parallel: boolean;
  llmMs: number;
  gapMs: number;
}

const turn = fc.record({
  calls: fc.array(
    fc.record({ tool: fc.constantFrom('read', 'search', 'write'), arg: fc.integer({ min: 0, max: 3 }), withId: fc.boolean(), recorded: fc.boolean(), fails: fc.boolean(), durMs: fc.integer({ min: 0, max: 400 }) }),
    { minLength: 1, maxLength: 3 },
  ),
  parallel: fc.boolean(),
  llmMs: fc.integer({ min: 1, max: 300 }),
  gapMs: fc.integer({ min: 0, max: 50 }),
});

function buildRun(turns: TurnPlan[], scale: number): SpanSpec[] {
  const spans: SpanSpec[] = [];
  let t = 0;
  let n = 0;
  turns.forEach((plan, i) => {
    const llm = `L${i}`;
    const end = t + plan.llmMs * scale;
    const parts = plan.calls.map((c, j) => ({ type: 'tool_call', name: c.tool, arguments: c.recorded ? { path: `f${c.arg}` } : '__REDACTED__', ...(c.withId ? { id: `id-${i}-${j}` } : {}) }));
    spans.push({ id: llm, parent: 'ROOT', name: 'chat m', start: t, end, attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts }]) } });
    t = end + plan.gapMs * scale;
    let latest = t;
    plan.calls.forEach((c, j) => {
      const start = plan.parallel ? t + j : latest;
      const stop = start + c.durMs * scale;
      latest = Math.max(latest, stop + 1);
      spans.push({
        id: `T${n++}`, parent: 'ROOT', name: `execute_tool ${c.tool}`, start, end: stop,
        attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': c.tool, ...(c.withId ? { 'gen_ai.tool.call.id': `id-${i}-${j}` } : {}), 'gen_ai.tool.call.arguments': c.recorded ? JSON.stringify({ path: `f${c.arg}` }) : '{}', 'gen_ai.tool.call.result': `content of f${c.arg}` },
        ...(c.fails ? { status: { code: 2 as const, message: 'EACCES' } } : {}),
      });
    });
    t = latest + plan.gapMs * scale;
  });
  spans.push({ id: 'LAST', parent: 'ROOT', name: 'chat m', start: t, end: t + 10, attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'done' }] }]) } });
  spans.push({ id: 'ROOT', name: 'invoke_agent a', start: 0, end: t + 20, attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'prop-agent' } });
  return spans.sort((a, b) => a.end - b.end || (a.id === 'ROOT' ? 1 : b.id === 'ROOT' ? -1 : 0));
}

function batchesOf(spans: SpanSpec[], cuts: number[], explicitId: boolean) {
  const resource = { 'service.name': 'svc', ...(explicitId ? { 'wayfinder.agent.id': 'explicit-agent' } : {}) };
  const points = [...new Set(cuts.map((c) => c % spans.length))].filter((c) => c > 0).sort((a, b) => a - b);
  const out: SpanSpec[][] = [];
  let from = 0;
  for (const p of [...points, spans.length]) {
    if (p > from) out.push(spans.slice(from, p));
    from = p;
  }
  return out.map((b) => spansOf(exportRequest(resource, b)));
}

function deliver(batches: ReturnType<typeof batchesOf>, order: number[], twice: number[]): StepEvent[] {
  const normalizer = new OtlpNormalizer(new FakeClock());
  const out: StepEvent[] = [];
  for (const i of order) {
    out.push(...normalizer.ingest('acme', batches[i]));
    if (twice.includes(i)) out.push(...normalizer.ingest('acme', batches[i]));
  }
  out.push(...normalizer.flushAll());
  return out.map(valid);
}

const runArb = fc.record({
  turns: fc.array(turn, { minLength: 1, maxLength: 6 }),
  cuts: fc.array(fc.nat(), { maxLength: 6 }),
  explicitId: fc.boolean(),
  orderSeed: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  twice: fc.array(fc.nat({ max: 7 }), { maxLength: 2 }),
});

function permutation(n: number, seed: number[]): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = seed[i % seed.length] % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

describe('any permutation of a trace’s span batches', () => {
  it('gives exactly the same steps when the run is shorter than the watermark delay', () => {
    fc.assert(
      fc.property(runArb, ({ turns, cuts, explicitId, orderSeed, twice }) => {
        const batches = batchesOf(buildRun(turns, 1), cuts, explicitId);
        const inOrder = deliver(batches, batches.map((_, i) => i), []);
        const shuffled = deliver(batches, permutation(batches.length, orderSeed), twice);
        expect(shuffled).toEqual(inOrder);
        expect(inOrder.some((s) => s.attributes?.['wayfinder.late'])).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('loses and doubles no observation or message of a long run, and marks the steps released out of order late', () => {
    fc.assert(
      fc.property(runArb, ({ turns, cuts, explicitId, orderSeed, twice }) => {
        const batches = batchesOf(buildRun(turns, 60), cuts, explicitId);
        const inOrder = deliver(batches, batches.map((_, i) => i), []);
        const shuffled = deliver(batches, permutation(batches.length, orderSeed), twice);
        const shape = (steps: StepEvent[]) => steps.map((s) => `${s.kind}:${s.kind === 'action' ? s.action.tool : s.kind === 'observation' ? `${s.observation.tool}:${s.eventId}` : s.eventId}`).sort();
        const perSpan = (steps: StepEvent[]) => shape(steps).filter((line) => !line.startsWith('action:'));
        expect(perSpan(shuffled)).toEqual(perSpan(inOrder));
        if (!shuffled.some((s) => s.attributes?.['wayfinder.late'])) expect(shape(shuffled)).toEqual(shape(inOrder));
        expect(new Set(shuffled.map((s) => s.eventId)).size).toBe(shuffled.length);
        // Within a run, seq follows release order and only late steps go back in event time.
        let latest = Number.NEGATIVE_INFINITY;
        shuffled.forEach((s, i) => {
          expect(s.seq).toBe(i);
          const t = Date.parse(s.ts);
          if (t < latest) expect(s.attributes?.['wayfinder.late']).toBe(true);
          latest = Math.max(latest, t);
        });
      }),
      { numRuns: 150 },
    );
  });
});
