/**
 * For the gateway's fuzz specs (the in-process one and the chaos one against a gateway process): hostile
 * values (deep nesting, huge strings, wrong types, prototype keys, catastrophic regex patterns), bodies
 * shaped like a route's own with hostile values put in (so validation goes deeper), and bad JSON.
 */
import fc from 'fast-check';

export function deep(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

export const EVIL_PATTERNS = ['^(a+)+$', '(a|aa)+$', '(.*a){20}', '([a-zA-Z]+)*$', '(?<=a)b', '\\', '[', '(?:x+x+)+y'];

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.integer({ min: 200, max: 3_000 }).map((d) => deep(d, 'x')),
  fc.integer({ min: 10_000, max: 200_000 }).map((n) => 'a'.repeat(n) + '!'),
  fc.constantFrom(null, true, -1, 1e308, Number.MAX_SAFE_INTEGER, '', '__proto__', 'constructor', { __proto__: { polluted: true } }, [], {}),
  fc.constantFrom(...EVIL_PATTERNS),
);

/** A body shaped like the route's own (so validation goes deeper), with hostile values put in. */
export function shapedLike(template: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(template)) return fc.array(shapedLike(template[0]), { maxLength: 3 });
  if (template && typeof template === 'object') {
    const entries = Object.entries(template as Record<string, unknown>);
    return fc.tuple(...entries.map(([k, v]) => fc.oneof({ weight: 2, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: shapedLike(v) }, { weight: 1, arbitrary: hostileValue }).map((x) => [k, x] as const))).map((pairs) => Object.fromEntries(pairs));
  }
  return fc.oneof(fc.constant(template), hostileValue);
}

export const badJson = fc.constantFrom('{', '{"a":', '[1,2', 'nul', '{"a":1}}', '\u0000', '{"a":"\\ud800"}', '"unterminated', '['.repeat(100_000), '{"__proto__":{"x":1}}', '');
