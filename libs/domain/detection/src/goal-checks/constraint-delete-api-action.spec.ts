// "Never call a delete API" / "不得调用任何删除类接口": a deletion tool is a critical violation naming the
// constraint's number; a listing tool is nothing.
import { agentSteps, goalEngine, mapOf, run } from './goal-checks.testing';

describe('constraint rules: a delete API under a no-delete constraint', () => {
  it('flags delete_records as critical, naming constraint 1 (EN)', () => {
    const map = mapOf('Clean up the customer table', { constraints: ['Never call a delete API'] });
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('list_records', { table: 'customers' }), s.act('delete_records', { ids: [4, 9] })]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ detector: 'constraint_violation', level: 'critical', atSeq: 1 });
    expect(out[0].evidence).toMatchObject({ constraintId: 'c1', constraintNumber: 1, constraint: 'Never call a delete API', tool: 'delete_records', rule: 'forbiddenTool', method: 'rule' });
    expect(out[0].message).toContain('Constraint 1 ("Never call a delete API")');
  });

  it('says nothing for list_records and remove_duplicates (EN)', () => {
    const map = mapOf('Clean up the customer table', { constraints: ['Never call a delete API'] });
    const s = agentSteps();
    expect(run(goalEngine(map), [s.act('list_records', { table: 'customers' }), s.act('remove_duplicates', { field: 'email' })])).toEqual([]);
  });

  it('numbers a goal constraint after the task\'s and flags drop_table (ZH)', () => {
    const map = mapOf('把给定数据源中的商品信息提取并结构化输出到 result.json。不得修改源文件，不得调用任何删除类接口，最终输出必须为 JSON。');
    const s = agentSteps();
    const out = run(goalEngine(map), [s.act('query_products', { q: '杯子' }), s.act('drop_table', { table: '商品' })]);
    expect(out.map((d) => [d.level, d.evidence['constraintNumber'], d.evidence['constraint']])).toEqual([['critical', 2, '不得调用任何删除类接口']]);
  });

  it('is silent when the policy turns the rules off', () => {
    const map = mapOf('Clean up', { constraints: ['Never call a delete API'] });
    const s = agentSteps();
    expect(run(goalEngine(map, { constraints: { rules: false } }), [s.act('delete_records', {})])).toEqual([]);
  });
});
