// A prohibition no rule covers ("Never export phone numbers", "禁止导出手机号") falls back to embedder
// similarity between the action and the prohibited thing: a warning above the policy's threshold.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

describe('constraint rules: embedder fallback for prohibitions without a rule', () => {
  it('warns on an action resembling what is forbidden (EN), not on an unrelated one', () => {
    const map = mapOf('Build the contact list. Never export phone numbers.');
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('read_file', { path: 'contacts.csv' }), s.act('export_contacts', { fields: ['phone numbers'] })]);
    expect(out.map((d) => [d.atSeq, d.level, d.evidence['method']])).toEqual([[1, 'warning', 'embedder']]);
    expect(out[0].evidence['similarity']).toBeGreaterThanOrEqual(0.45);
  });

  it('warns in Chinese too (ZH)', () => {
    const map = mapOf('整理客户名单。禁止导出手机号。');
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('export', { 字段: '手机号' })]);
    expect(out.map((d) => [d.level, d.evidence['constraint']])).toEqual([['warning', '禁止导出手机号']]);
  });

  it('never checks an obligation by similarity, and a higher threshold silences the fallback', () => {
    const s = agentSteps();
    expect(run(goalEngine(mapOf('Research Acme. Only use public sources.')), [s.act('use_public_sources', { q: 'public sources' })])).toEqual([]);
    const t = agentSteps();
    const map = mapOf('Build the contact list. Never export phone numbers.');
    expect(run(goalEngine(map, { constraints: { embedderThreshold: 0.95 } }), [t.act('export_contacts', { fields: ['phone numbers'] })])).toEqual([]);
  });
});
