/** Properties of normalization and fingerprints over arbitrary input (fast-check). */
import fc from 'fast-check';
import { argsHash, resultHash } from './fingerprint';
import { canonicalJson, normalizeText, normalizeValue } from './normalize';

const volatileText = fc.array(
  fc.oneof(
    fc.string(),
    fc.fullUnicodeString(),
    fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((d) => d.toISOString()),
    fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}:${String(m).padStart(2, '0')}:07.125`),
    fc.integer({ min: 0, max: 99999 }).map((n) => `${n} ms`),
    fc.integer({ min: 0, max: 99999 }).map((n) => `pid ${n}`),
    fc.integer({ min: 0, max: 99 }).map((n) => `attempt ${n}`),
    fc.integer({ min: 0, max: 99 }).map((n) => `retry=${n}`),
  ),
).map((parts) => parts.join(' '));

/** Rebuilds a JSON value with every object's keys in reverse order. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) {
      Object.defineProperty(out, key, { value: reorder((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

describe('normalization properties', () => {
  it('normalizeText is idempotent', () => {
    fc.assert(fc.property(volatileText, (text) => normalizeText(normalizeText(text)) === normalizeText(text)), { numRuns: 500 });
  });

  it('normalizeValue is idempotent on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => canonicalJson(normalizeValue(normalizeValue(value))) === canonicalJson(normalizeValue(value))),
      { numRuns: 300 },
    );
  });

  it('argsHash ignores the order of object keys at every depth', () => {
    fc.assert(fc.property(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), (tool, args) => argsHash(tool, args) === argsHash(tool, reorder(args))), {
      numRuns: 300,
    });
  });

  it('argsHash separates different tools with the same args', () => {
    expect(argsHash('read', { path: '/a' })).not.toBe(argsHash('write', { path: '/a' }));
  });

  it('resultHash ignores timestamps, durations, pids and attempt counters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 9999 }), (a, b) => {
        const text = (n: number) => `done at 2026-03-0${(n % 9) + 1}T10:0${n % 10}:07Z after ${n} ms (pid ${n}, attempt ${n % 7})`;
        return resultHash({ ok: true, content: text(a) }) === resultHash({ ok: true, content: text(b) });
      }),
    );
  });

  it('resultHash drops volatile keys in structured content but keeps the rest', () => {
    const a = resultHash({ ok: true, content: { rows: 3, requestId: 'r-1', meta: { updatedAt: 'x', TraceId: 'y' } } });
    const b = resultHash({ ok: true, content: { rows: 3, requestId: 'r-2', meta: { updatedAt: 'z', TraceId: 'w' } } });
    const c = resultHash({ ok: true, content: { rows: 4, requestId: 'r-2', meta: { updatedAt: 'z' } } });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});
