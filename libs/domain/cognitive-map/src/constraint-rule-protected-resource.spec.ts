/**
 * Rule `protectedResource`: "do not modify the source file" protects the files the run reads (its
 * inputs) or the paths the text names; reading them is not modifying them, and the run's own outputs
 * (written before they were ever read) are free to rewrite.
 */
import { checkAction, normalizePath } from './constraint-check';
import { compileConstraints } from './constraint-rules';

const one = (text: string) => compileConstraints([{ id: 'c2', text, hard: true }])[0];
const facts = (read: string[], own: string[] = []) => ({ readPaths: new Set(read.map(normalizePath)), ownPaths: new Set(own.map(normalizePath)) });

describe('protectedResource rule', () => {
  it('protects the input files of "Do not modify the source file" (EN): writing one read is a violation', () => {
    const c = one('Do not modify the source file');
    expect(c.rules).toEqual([{ kind: 'protectedResource', paths: [], inputs: true }]);
    const run = facts(['data/products.csv']);
    expect(checkAction(c, 'write_file', { path: 'data/products.csv', content: 'x' }, run)?.reason).toContain('input file');
    expect(checkAction(c, 'delete_file', { path: './data/products.csv' }, run)).toBeDefined();
  });

  it('does not flag reading the source file, or writing the run\'s own output (EN)', () => {
    const c = one('You must not modify the input files');
    const run = facts(['data/products.csv'], ['result.json']);
    expect(checkAction(c, 'read_file', { path: 'data/products.csv' }, run)).toBeUndefined();
    expect(checkAction(c, 'write_file', { path: 'result.json', content: '{}' }, run)).toBeUndefined();
    expect(checkAction(c, 'write_file', { path: 'notes.md' }, run)).toBeUndefined();
  });

  it('protects a path the text names, read or not', () => {
    const c = one('Never edit `config/prod.yaml`');
    expect(c.rules).toEqual([{ kind: 'protectedResource', paths: ['config/prod.yaml'], inputs: false }]);
    expect(checkAction(c, 'edit_file', { file: 'config/prod.yaml' }, facts([]))).toBeDefined();
    expect(checkAction(c, 'edit_file', { file: 'config/dev.yaml' }, facts([]))).toBeUndefined();
  });

  it('compiles "不得修改源文件" and flags overwriting the input, not reading it (ZH)', () => {
    const c = one('不得修改源文件');
    expect(c.rules).toEqual([{ kind: 'protectedResource', paths: [], inputs: true }]);
    const run = facts(['input/商品.json']);
    expect(checkAction(c, 'save_file', { filename: 'input/商品.json' }, run)).toBeDefined();
    expect(checkAction(c, 'read_file', { filename: 'input/商品.json' }, run)).toBeUndefined();
  });
});
