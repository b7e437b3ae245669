/**
 * The early stage of P1 (PROJECT-RULES.md, "The third identical call"): the peers' plainest loops — Roo Code's
 * three cases — are a hint-level deviation (a warning, the first rung) at the third identical call, and the
 * later escalation of the same loop still happens.
 */
import type { Deviation, StepEvent } from '@wayfinder/contracts';
import { validatePolicy } from './policy/validate';
import { engineFor, runAll, steps } from './test-support/step-builder';

const file = 'export function total(items) {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}\n';

/** Seq of the n-th action (1-based) among the events. */
function nthAction(events: StepEvent[], n: number): number {
  return events.filter((e) => e.kind === 'action')[n - 1].seq;
}

function loops(out: Deviation[]): Deviation[] {
  return out.filter((d) => d.detector !== 'stagnation');
}

describe('the third identical call (balanced profile)', () => {
  it('catches a fourth identical call by the third: a warning at the third call itself', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 4; i++) events.push(s.act('execute_command', { command: 'npm test -- cart' }), s.ok('execute_command', 'FAIL src/cart.spec.ts\n  total › sums prices: expected 12, got 0\nTests: 1 failed, 4 passed'));
    const out = loops(runAll(engineFor(), events));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ detector: 'near_duplicate_calls', level: 'warning', count: 2, atSeq: nthAction(events, 3), loopStartSeq: nthAction(events, 1) });
    expect(out[0].evidence).toMatchObject({ tool: 'execute_command', identicalArgs: true, early: true });
  });

  it('catches the same file read three times with the same content at the third read', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 3; i++) events.push(s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file));
    const out = loops(runAll(engineFor(), events));
    expect(out.map((d) => [d.detector, d.level, d.atSeq])).toEqual([['near_duplicate_calls', 'warning', nthAction(events, 3)]]);
  });

  it('compares args canonically: the same parameters in another key order are the same call', () => {
    const s = steps();
    const result = 'src/cart.ts:14: // TODO handle discounts';
    const events = [
      s.act('search_files', { path: 'src', regex: 'TODO', file_pattern: '*.ts' }),
      s.ok('search_files', result),
      s.act('search_files', { file_pattern: '*.ts', regex: 'TODO', path: 'src' }),
      s.ok('search_files', result),
      s.act('search_files', { regex: 'TODO', path: 'src', file_pattern: '*.ts' }),
      s.ok('search_files', result),
    ];
    const out = loops(runAll(engineFor(), events));
    expect(out.map((d) => [d.detector, d.level, d.atSeq])).toEqual([['near_duplicate_calls', 'warning', nthAction(events, 3)]]);
  });

  it('normalizes the result as every detector does: a changing timestamp or duration is the same result', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 3; i++) {
      events.push(s.act('run_tests', { suite: 'cart' }), s.ok('run_tests', `2026-01-01T00:0${i}:00Z 1 failed, 4 passed in ${120 + i * 7} ms`));
    }
    expect(loops(runAll(engineFor(), events)).map((d) => d.atSeq)).toEqual([nthAction(events, 3)]);
  });

  it('gives one hint per loop, then escalates as before: critical at the fifth call, generic_repeat from the eleventh', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 12; i++) events.push(s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file));
    const out = loops(runAll(engineFor(), events));
    const warnings = out.filter((d) => d.detector === 'near_duplicate_calls' && d.level === 'warning');
    expect(warnings.map((d) => d.atSeq)).toEqual([nthAction(events, 3)]);
    // The observation stage (nearDuplicate.critical 4 repeats) and the upstream table (loop.warning 10) still speak.
    expect(out.find((d) => d.detector === 'near_duplicate_calls' && d.level === 'critical')?.atSeq).toBe(nthAction(events, 5) + 1);
    expect(out.find((d) => d.detector === 'generic_repeat')).toMatchObject({ level: 'warning', count: 10, atSeq: nthAction(events, 11) });
    // Never two loop deviations on one step.
    const perStep = new Map<number, number>();
    for (const d of out) perStep.set(d.atSeq, (perStep.get(d.atSeq) ?? 0) + 1);
    expect([...perStep.values()].every((n) => n === 1)).toBe(true);
  });

  it('is a policy field: nearDuplicate.identicalWarning 3 moves the hint to the fourth call', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 4; i++) events.push(s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file));
    const engine = engineFor({ nearDuplicate: { identicalWarning: 3 } });
    expect(loops(runAll(engine, events)).map((d) => [d.level, d.count, d.atSeq])).toEqual([['warning', 3, nthAction(events, 4)]]);
  });

  it('under strict (successWarning 2, critical 3) still warns once, at the third call, and goes critical at the fourth', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 4; i++) events.push(s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file));
    const out = loops(runAll(engineFor({ profile: 'strict' }), events));
    expect(out.map((d) => [d.detector, d.level, d.atSeq])).toEqual([
      ['near_duplicate_calls', 'warning', nthAction(events, 3)],
      ['near_duplicate_calls', 'critical', nthAction(events, 4) + 1],
    ]);
  });

  it('refuses an identicalWarning below 2, which could never fire (the new call is at least the second repeat)', () => {
    expect(validatePolicy({ nearDuplicate: { identicalWarning: 1 } })).toEqual({ ok: false, error: 'nearDuplicate.identicalWarning: must be at least 2 (2 = the third identical call)' });
    expect(validatePolicy({ nearDuplicate: { identicalWarning: 2 } }).ok).toBe(true);
  });
});
