/**
 * A hostile step's detection cost is bounded, and the same on every replay (issue #29): detection reads a
 * step through step-bounds.ts, so 7,000 argument keys, 60 KiB of argument text or a 64 KiB message give
 * the detectors at most the operator's bounds to read, the step itself is left as it came, and the work
 * reported per step is a function of the step and the bounds only (no clock).
 */
import type { JsonValue, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine } from './detection.engine';
import { resolvePolicy } from './policy/resolve';
import { boundedStep, DEFAULT_STEP_BOUNDS, type StepBounds } from './step-bounds';
import { steps } from './test-support/step-builder';

const manyKeys = (n: number): Record<string, JsonValue> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i.toString(36)}`, i % 10]));
const deep = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`) as Record<string, JsonValue>;

function depthOf(value: unknown): number {
  let depth = 0;
  for (let v = value; v && typeof v === 'object'; v = (v as Record<string, unknown>).a) depth++;
  return depth;
}

describe('step bounds', () => {
  it('read a step within the bounds as it is, without a copy', () => {
    const s = steps();
    for (const step of [s.act('read_file', { path: '/a', options: { lines: [1, 2] } }), s.say('done'), s.ok('read_file', { text: 'x' }), s.fail('run', 'boom')]) {
      expect(boundedStep(step)).toBe(step);
    }
  });

  it('read at most maxArgNodes values of 7,000 argument keys, leaving the step itself whole', () => {
    const step = steps().act('web_search', manyKeys(7_000));
    const read = boundedStep(step);
    expect(Object.keys((read as Extract<StepEvent, { kind: 'action' }>).action.args).length).toBeLessThan(DEFAULT_STEP_BOUNDS.maxArgNodes);
    expect(Object.keys((step as Extract<StepEvent, { kind: 'action' }>).action.args)).toHaveLength(7_000);
  });

  it('read argument strings, messages, observation content and errors up to their character bounds', () => {
    const bounds: StepBounds = { ...DEFAULT_STEP_BOUNDS, maxArgChars: 100, maxTextChars: 50, maxOutputChars: 80 };
    const s = steps();
    const action = boundedStep(s.act('web_search', { query: 'q'.repeat(60), more: 'm'.repeat(60) }), bounds) as Extract<StepEvent, { kind: 'action' }>;
    // Keys count as characters read: 100 - 'query' - 60 - 'more' leaves 31.
    expect(action.action.args).toEqual({ query: 'q'.repeat(60), more: 'm'.repeat(31) });
    const message = boundedStep(s.say('w'.repeat(64 * 1024)), bounds) as Extract<StepEvent, { kind: 'message' }>;
    expect(message.message.text).toHaveLength(50);
    const failed = boundedStep(s.fail('run', 'e'.repeat(1_000)), bounds) as Extract<StepEvent, { kind: 'observation' }>;
    expect(failed.observation.error).toHaveLength(80);
    const output = boundedStep(s.ok('read', ['a'.repeat(50), 'b'.repeat(50)]), bounds) as Extract<StepEvent, { kind: 'observation' }>;
    expect(output.observation.content).toEqual(['a'.repeat(50), 'b'.repeat(30)]);
  });

  it('read args no deeper than maxArgDepth, whatever the nesting, and keep a __proto__ key a key', () => {
    const read = boundedStep(steps().act('run', deep(5_000))) as Extract<StepEvent, { kind: 'action' }>;
    expect(depthOf(read.action.args)).toBe(DEFAULT_STEP_BOUNDS.maxArgDepth);
    const proto = boundedStep(steps().act('run', { ...(JSON.parse('{"__proto__":{"polluted":1}}') as Record<string, JsonValue>), ...deep(40) })) as Extract<StepEvent, { kind: 'action' }>;
    expect(Object.getPrototypeOf(proto.action.args)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(proto.action.args, '__proto__')).toBe(true);
  });

  it('give the engine the same deviations and the same work for the same hostile steps on every replay', () => {
    const policy = resolvePolicy({});
    const replay = () => {
      const work: number[] = [];
      const engine = new DetectionEngine({ policyFor: () => ({ policy }), onStepCost: (_tenant, w) => work.push(w) });
      const s = steps();
      const hostile = [s.act('web_search', manyKeys(7_000)), s.fail('web_search', 'e'.repeat(70_000)), s.act('web_search', manyKeys(7_000)), s.say('w '.repeat(40_000)), s.act('web_search', manyKeys(7_000)), s.fail('web_search', 'e'.repeat(70_000))];
      const deviations = hostile.flatMap((step) => engine.onStep(step)).map((d) => `${d.detector}@${d.atSeq}`);
      return { deviations, work };
    };
    const first = replay();
    expect(replay()).toEqual(first);
    // 7,000 keys read as the node bound (the args object itself, then 999 keys' values) and those keys'
    // characters; a 70,000-char error as its bound.
    const keysRead = DEFAULT_STEP_BOUNDS.maxArgNodes + Object.keys(manyKeys(DEFAULT_STEP_BOUNDS.maxArgNodes - 1)).join('').length;
    expect(first.work).toEqual([keysRead, DEFAULT_STEP_BOUNDS.maxOutputChars, keysRead, DEFAULT_STEP_BOUNDS.maxTextChars, keysRead, DEFAULT_STEP_BOUNDS.maxOutputChars]);
  });

  it('follow the operator: a lower bound lowers what the engine reads', () => {
    const policy = resolvePolicy({});
    const work: number[] = [];
    const engine = new DetectionEngine({ policyFor: () => ({ policy }), stepBounds: { ...DEFAULT_STEP_BOUNDS, maxTextChars: 10 }, onStepCost: (_tenant, w) => work.push(w) });
    engine.onStep(steps().say('a message of forty characters, give or t'));
    expect(work).toEqual([10]);
  });
});
