import { topologicalOrder, validateMap } from './map-validation';

describe('validateMap', () => {
  it('returns a deterministic topological order of a valid DAG (declaration order where free)', () => {
    const result = validateMap([
      { id: 'report', dependsOn: ['a', 'b'] },
      { id: 'a', dependsOn: [] },
      { id: 'b', dependsOn: ['a'] },
      { id: 'c', dependsOn: [] },
    ]);
    expect(result).toEqual({ ok: true, value: ['a', 'b', 'c', 'report'] });
  });

  it('names every id of a three-step cycle and leaves out ids outside it', () => {
    const result = validateMap([
      { id: 'start', dependsOn: [] },
      { id: 'x', dependsOn: ['start', 'z'] },
      { id: 'y', dependsOn: ['x'] },
      { id: 'z', dependsOn: ['y'] },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('cycle');
    expect([...result.error.ids].sort()).toEqual(['x', 'y', 'z']);
    expect(result.error.message).toMatch(/^dependency cycle: /);
  });

  it('names a self-dependency as a cycle', () => {
    expect(validateMap([{ id: 'loop', dependsOn: ['loop'] }])).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'cycle', ids: ['loop'] }),
    });
  });

  it('topologicalOrder leaves cycle members out instead of looping', () => {
    expect(topologicalOrder([{ id: 'a', dependsOn: [] }, { id: 'b', dependsOn: ['c'] }, { id: 'c', dependsOn: ['b'] }])).toEqual(['a']);
  });
});
