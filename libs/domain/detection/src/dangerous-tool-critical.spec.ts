/** constraint_violation: a dangerous tool is critical at its first call; safe tools are not. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('dangerous tools', () => {
  it('flags delete/publish/drop tools at once and leaves the others alone', () => {
    const engine = engineFor();
    const s = steps();
    const out = runAll(engine, [
      s.act('read_file', { path: '/etc/hosts' }),
      s.act('delete_records', { table: 'users' }),
      s.act('publish_release', { tag: 'v2' }),
      s.act('drop_table', { name: 'orders' }),
    ]).filter((d) => d.detector === 'constraint_violation');
    expect(out.map((d) => [d.evidence.tool, d.level, d.count, d.atSeq])).toEqual([
      ['delete_records', 'critical', 1, 1],
      ['publish_release', 'critical', 1, 2],
      ['drop_table', 'critical', 1, 3],
    ]);
  });

  it('is off in the openclaw profile unless configured', () => {
    const s = steps();
    expect(runAll(engineFor({ profile: 'openclaw' }), [s.act('delete_everything', {})])).toEqual([]);
    const t = steps();
    expect(runAll(engineFor({ profile: 'openclaw', constraints: { dangerousTools: ['delete_*'] } }), [t.act('delete_everything', {})])).toHaveLength(1);
  });
});
