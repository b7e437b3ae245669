/**
 * The legitimate twins of the third identical call (PROJECT-RULES.md P1, "The third identical call"):
 * the same call made a third time is no deviation when something shows progress — its output changed, it
 * acts on another target, a compaction came between, it failed for a passing reason and then succeeded,
 * or other work succeeded in between (DESIGN §5.3, legitimate work).
 */
import type { Deviation, StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

const file = 'export function total(items) {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}\n';

function loops(out: Deviation[]): Deviation[] {
  return out.filter((d) => d.detector !== 'stagnation');
}

describe('the third identical call: legitimate twins stay clean', () => {
  it('polling whose output changes: the same status call six times, each answer different', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 6; i++) events.push(s.act('check_deploy', { service: 'cart-api' }), s.ok('check_deploy', `rolling out: ${i + 1} of 6 pods ready`));
    expect(loops(runAll(engineFor(), events))).toEqual([]);
  });

  it('a batch over distinct targets: the same read of three files with the same content', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (const path of ['src/a/index.ts', 'src/b/index.ts', 'src/c/index.ts', 'src/d/index.ts']) events.push(s.act('read_file', { path }), s.ok('read_file', "export * from './lib';"));
    expect(loops(runAll(engineFor(), events))).toEqual([]);
  });

  // The same read after a compaction (twice before it, twice after it): legit-same-read-after-compaction.spec.ts.

  it('a retry that succeeds after failing: two timeouts, then the answer', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 2; i++) events.push(s.act('http_get', { url: 'https://api.example.com/v1/orders/8841' }), s.fail('http_get', 'Request timed out after 30000 ms'));
    events.push(s.act('http_get', { url: 'https://api.example.com/v1/orders/8841' }), s.ok('http_get', { id: 8841, status: 'shipped' }));
    expect(loops(runAll(engineFor(), events))).toEqual([]);
  });

  it('ls and pwd between edits: the same answers, but an edit succeeded between each pair', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 5; i++) {
      events.push(s.act('bash', { command: 'pwd' }), s.ok('bash', '/workspace/app'));
      events.push(s.act('list_dir', { path: '.' }), s.ok('list_dir', 'src\ntest\npackage.json'));
      events.push(s.act('edit_file', { path: `src/module-${i}.ts`, find: 'var ', replace: 'const ' }), s.ok('edit_file', `edited src/module-${i}.ts`));
    }
    expect(loops(runAll(engineFor(), events))).toEqual([]);
  });

  it('a different result restarts the count: the file changed after the first read', () => {
    const s = steps();
    const events = [
      s.act('read_file', { path: 'src/cart.ts' }),
      s.ok('read_file', 'export const total = 0;'),
      s.act('read_file', { path: 'src/cart.ts' }),
      s.ok('read_file', file),
      s.act('read_file', { path: 'src/cart.ts' }),
      s.ok('read_file', file),
    ];
    expect(loops(runAll(engineFor(), events))).toEqual([]);
    // …and the next identical read is the third with the same result: the loop is caught there.
    const engine = engineFor();
    runAll(engine, events);
    const fourth = [s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file)];
    expect(loops(runAll(engine, fourth)).map((d) => [d.detector, d.atSeq])).toEqual([['near_duplicate_calls', fourth[0].seq]]);
  });

  it('a milestone done between the calls ends the chain', () => {
    const s = steps();
    const events = [
      s.act('read_file', { path: 'docs/spec.md' }),
      s.ok('read_file', '# Spec'),
      s.act('read_file', { path: 'docs/spec.md' }),
      s.ok('read_file', '# Spec'),
      s.milestone('m1'),
      s.act('read_file', { path: 'docs/spec.md' }),
      s.ok('read_file', '# Spec'),
    ];
    expect(loops(runAll(engineFor(), events))).toEqual([]);
  });
});
