/**
 * The hand-written step check (step-fast-path.ts) against the zod schema, on generated values both valid
 * and broken: whatever it accepts, the schema accepts with an output identical to the value (so taking the
 * value as the parsed step changes nothing), and it accepts the common well-formed steps (so the hot path
 * uses it). What it does not accept goes to the schema, whose errors are unchanged.
 */
import fc from 'fast-check';
import { MAX_ID_LENGTH } from './limits';
import { StepEvent } from './step';
import { fastStepEvent } from './step-fast-path';
import { parsePayload } from './topics';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Timestamps around the edges of zod's datetime regex: bad months and days, leap days, zones, fractions. */
const timestamp = fc.oneof(
  { weight: 3, arbitrary: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()) },
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc
    .tuple(
      fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1900, 2000, 2024, 2100, 2400)),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.option(fc.integer({ min: 0, max: 61 })),
      fc.constantFrom('', '.1', '.123', '.123456789', '.'),
      fc.constantFrom('Z', 'z', '', '+02:00', '-0530', '+2:00', '+02:0', ' Z', '+14:00'),
      fc.constantFrom('T', ' ', 't'),
    )
    .map(([y, mo, d, h, mi, s, frac, zone, sep]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}${sep}${pad(h, 2)}:${pad(mi, 2)}${s === null ? '' : `:${pad(s, 2)}${frac}`}${zone}`),
  fc.string(),
);

const idLike = fc.oneof(
  { weight: 12, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  fc.constantFrom('', 'a'.repeat(MAX_ID_LENGTH), 'a'.repeat(MAX_ID_LENGTH + 1), '😀'.repeat(64), '😀'.repeat(65)),
  fc.integer(),
  fc.constant(null),
);
const goodId = fc.string({ minLength: 1, maxLength: 24 });
/** Around truncateText's bound (64 KiB of UTF-8): unchanged below it, truncated above. */
const textLike = fc.oneof(
  { weight: 20, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(21_845), 'x'.repeat(21_846), 'x'.repeat(65_536), 'x'.repeat(65_537), 'é'.repeat(32_769), '😀'.repeat(16_385)) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null)) },
);
const notJson = fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, new Date(0), [1, undefined], { a: undefined }, () => 1);
const jsonLike = fc.oneof({ weight: 15, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: notJson });
const number = fc.oneof({ weight: 12, arbitrary: fc.nat() }, fc.integer({ min: -3, max: 3 }), fc.double(), fc.constantFrom(1.5, -0, Number.NaN, Number.POSITIVE_INFINITY), fc.constant('1'));
const maybeExtra = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('extra', '__proto__', 'constructor', 'attributes', 'action') },
);

function withExtra<T extends Record<string, unknown>>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.tuple(arb, maybeExtra, jsonLike).map(([value, extra, v]) => {
    if (extra === undefined) return value;
    const copy: Record<string, unknown> = { ...value };
    if (extra === '__proto__') Object.defineProperty(copy, '__proto__', { value: v, enumerable: true, configurable: true, writable: true });
    else copy[extra] = v;
    return copy as T;
  });
}

const bodies: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  action: withExtra(fc.record({ tool: idLike, args: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), jsonLike, { maxKeys: 4 }), jsonLike, fc.constant({ big: 'x'.repeat(70_000) })), callId: idLike }, { requiredKeys: ['tool'] })),
  observation: withExtra(
    fc.record(
      {
        callId: idLike, tool: idLike, ok: fc.oneof(fc.boolean(), fc.constant('true')), content: fc.oneof(textLike, jsonLike, fc.constant(['x'.repeat(70_000)])), error: textLike,
        errorCode: fc.oneof(fc.string({ maxLength: 130 }), fc.constant('c'.repeat(129))), status: fc.oneof(fc.string({ maxLength: 4 }), number, fc.constant('s'.repeat(129))),
      },
      { requiredKeys: ['tool', 'ok'] },
    ),
  ),
  message: withExtra(fc.record({ role: fc.constantFrom('assistant', 'user', 'system', 'tool', 'robot'), text: textLike, type: fc.constantFrom('thought', 'output', 'other') }, { requiredKeys: ['role', 'text'] })),
  milestone: withExtra(fc.record({ id: idLike, status: fc.constantFrom('started', 'done', 'failed', 'later'), evidence: textLike }, { requiredKeys: ['id', 'status'] })),
  feedback: withExtra(fc.record({ text: textLike })),
  compaction: withExtra(fc.record({ reason: textLike })),
  plan: fc.record({ subgoals: fc.array(fc.record({ id: goodId, text: fc.string() }), { maxLength: 3 }) }),
};

const anyStep: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.constantFrom('action', 'observation', 'message', 'milestone', 'feedback', 'compaction', 'plan', 'bogus'),
    fc.constantFrom('action', 'observation', 'message', 'milestone', 'feedback', 'compaction', 'plan'),
    fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    withExtra(
      fc.record(
        {
          schema: fc.oneof({ weight: 12, arbitrary: fc.constant('wayfinder.step.v1') }, { weight: 1, arbitrary: fc.constant('wayfinder.step.v2') }), eventId: idLike, tenantId: idLike, agentId: idLike, taskId: idLike, ts: timestamp, seq: number,
          runId: fc.oneof(idLike, fc.constant(null)),
          usage: withExtra(fc.record({ inputTokens: number, outputTokens: number, costUsd: number, latencyMs: number }, { requiredKeys: [] })),
        },
        { requiredKeys: ['schema', 'eventId', 'tenantId', 'agentId', 'taskId', 'ts', 'seq'] },
      ),
    ),
  )
  .chain(([kind, bodyKind, matching, base]) => (bodies[matching ? (kind === 'bogus' ? 'action' : kind) : bodyKind]).map((body) => ({ ...base, kind, [matching ? kind : bodyKind]: body })));

/** The steps agents send all day: well-formed, of the kinds the fast path knows. */
const commonStep: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record({ schema: fc.constant('wayfinder.step.v1'), eventId: goodId, tenantId: goodId, agentId: goodId, taskId: goodId, runId: fc.oneof(goodId, fc.constant(null)), seq: fc.nat(), ts: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()) }, { requiredKeys: ['schema', 'eventId', 'tenantId', 'agentId', 'taskId', 'seq', 'ts'] }),
    fc.oneof(
      fc.record({ kind: fc.constant('action'), action: fc.record({ tool: goodId, args: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), callId: goodId }, { requiredKeys: ['tool', 'args'] }) }),
      fc.record({ kind: fc.constant('observation'), observation: fc.record({ tool: goodId, ok: fc.boolean(), callId: goodId, content: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })), error: fc.string() }, { requiredKeys: ['tool', 'ok'] }) }),
      fc.record({ kind: fc.constant('message'), message: fc.record({ role: fc.constantFrom('assistant', 'user', 'system', 'tool'), text: fc.string(), type: fc.constantFrom('thought', 'output') }, { requiredKeys: ['role', 'text'] }) }),
      fc.record({ kind: fc.constant('milestone'), milestone: fc.record({ id: goodId, status: fc.constantFrom('started', 'done', 'failed'), evidence: fc.string() }, { requiredKeys: ['id', 'status'] }) }),
    ),
  )
  .map(([base, rest]) => ({ ...base, ...rest }));

describe('the hand-written step check', () => {
  it('accepts only what the schema accepts, and only where the schema returns the value unchanged', () => {
    let accepted = 0;
    fc.assert(
      fc.property(anyStep, (value) => {
        const fast = fastStepEvent(value);
        if (fast === undefined) return;
        accepted++;
        expect(fast).toBe(value);
        const parsed = StepEvent.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toStrictEqual(value);
      }),
      { numRuns: 10_000 },
    );
    // Not vacuous: a good share of the generated values took the fast path.
    expect(accepted).toBeGreaterThan(200);
  });

  it('accepts the common well-formed steps, as the schema does', () => {
    fc.assert(
      fc.property(commonStep, (value) => {
        expect(fastStepEvent(value)).toBe(value);
        expect(StepEvent.safeParse(value).data).toStrictEqual(value);
      }),
      { numRuns: 5_000 },
    );
  });

  it('leaves the errors to the schema: a broken step still names its field', () => {
    const step = { schema: 'wayfinder.step.v1', eventId: 'e1', tenantId: 't', agentId: 'a', taskId: 'k', seq: 1, ts: '2026-02-30T00:00:00Z', kind: 'action', action: { tool: 'x', args: {} } };
    expect(fastStepEvent(step)).toBeUndefined();
    expect(parsePayload('wayfinder.steps.v1', step)).toEqual({ ok: false, error: 'ts: must be an ISO-8601 date-time' });
    // A step without args gets them from the schema's default: the schema's output, not the value.
    const noArgs = { ...step, ts: '2026-01-01T00:00:00Z', action: { tool: 'x' } };
    expect(parsePayload('wayfinder.steps.v1', noArgs)).toEqual({ ok: true, value: { ...noArgs, action: { tool: 'x', args: {} } } });
  });
});
