/**
 * Rule `forbiddenTool`: "never call a delete API" forbids every deletion tool; "do not delete any records"
 * forbids deleting records only. `remove_duplicates` cleans a result set up: it is not a delete API for
 * any deletion constraint (decided: content clean-up verbs+objects are not deletions of stored data).
 */
import { checkAction } from './constraint-check';
import { compileConstraints } from './constraint-rules';

const facts = { readPaths: new Set<string>(), ownPaths: new Set<string>() };
const one = (text: string) => compileConstraints([{ id: 'c1', text, hard: true }])[0];

describe('forbiddenTool rule', () => {
  it('compiles "Never call a delete API" to the delete category, with no object', () => {
    expect(one('Never call a delete API').rules).toEqual([{ kind: 'forbiddenTool', category: 'delete' }]);
  });

  it('flags delete_records and deleteRecords under "Never call a delete API" (EN)', () => {
    const c = one('Never call a delete API');
    expect(checkAction(c, 'delete_records', { ids: [1, 2] }, facts)?.reason).toContain('delete tool');
    expect(checkAction(c, 'db.deleteRecords', {}, facts)).toBeDefined();
  });

  it('does not flag list_records, read tools or remove_duplicates under "Never call a delete API"', () => {
    const c = one('Never call a delete API');
    expect(checkAction(c, 'list_records', { table: 'orders' }, facts)).toBeUndefined();
    expect(checkAction(c, 'get_record', { id: 3 }, facts)).toBeUndefined();
    expect(checkAction(c, 'remove_duplicates', { field: 'email' }, facts)).toBeUndefined();
  });

  it('scopes "Do not delete any records" to records: delete_records yes, delete_file and remove_duplicates no', () => {
    const c = one('Do not delete any records');
    expect(c.rules).toEqual([{ kind: 'forbiddenTool', category: 'delete', object: 'record' }]);
    expect(checkAction(c, 'delete_records', {}, facts)).toBeDefined();
    expect(checkAction(c, 'delete', { table: 'orders', where: 'id=3' }, facts)).toBeDefined();
    expect(checkAction(c, 'delete_file', { path: 'tmp/x.txt' }, facts)).toBeUndefined();
    expect(checkAction(c, 'remove_duplicates', { records: 'all' }, facts)).toBeUndefined();
  });

  it('compiles "不得调用任何删除类接口" to the delete category and flags delete_records, not list_records (ZH)', () => {
    const c = one('不得调用任何删除类接口');
    expect(c.rules).toEqual([{ kind: 'forbiddenTool', category: 'delete' }]);
    expect(checkAction(c, 'delete_records', {}, facts)).toBeDefined();
    expect(checkAction(c, 'drop_table', {}, facts)).toBeDefined();
    expect(checkAction(c, 'list_records', {}, facts)).toBeUndefined();
  });

  it('scopes "不得删除任何记录" to records (ZH)', () => {
    const c = one('不得删除任何记录');
    expect(c.rules).toEqual([{ kind: 'forbiddenTool', category: 'delete', object: 'record' }]);
    expect(checkAction(c, 'delete_rows', {}, facts)).toBeDefined();
    expect(checkAction(c, 'delete_file', {}, facts)).toBeUndefined();
  });

  it('forbids a tool named in the text, and only that one', () => {
    const c = one('Never call `send_invoice` without approval');
    expect(checkAction(c, 'send_invoice', {}, facts)).toBeDefined();
    expect(checkAction(c, 'draft_invoice', {}, facts)).toBeUndefined();
  });

  it('compiles no tool rule for an obligation', () => {
    expect(one('Only use public sources').rules).toEqual([]);
  });
});
