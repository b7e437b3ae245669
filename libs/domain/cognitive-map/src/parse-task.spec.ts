import { CognitiveMap, MAX_MILESTONES } from '@wayfinder/contracts';
import { parseTask } from './task-parser';
import { task } from './testing/step-builders';

describe('parseTask', () => {
  it('builds a valid version-1 map from the goal text when no milestones are given', () => {
    const result = parseTask(task('读取数据源 -> 清洗字段 -> 计算核心指标 -> 生成报告章节 -> 交叉复核'));
    if (!result.ok) throw new Error(result.error.message);
    expect(CognitiveMap.safeParse(result.value).success).toBe(true);
    expect(result.value.version).toBe(1);
    expect(result.value.milestones.map((m) => m.description)).toEqual(['读取数据源', '清洗字段', '计算核心指标', '生成报告章节', '交叉复核']);
    expect(result.value.milestones[2].dependsOn).toEqual([result.value.milestones[1].id]);
    expect(result.value.targetState).toContain('交叉复核');
  });

  it('lets explicit milestones win over the goal text', () => {
    const result = parseTask(
      task('a -> b -> c', {
        milestones: [
          { id: 'collect', description: 'collect sources', dependsOn: [] },
          { id: 'write', description: 'write the report', dependsOn: ['collect'], validator: { type: 'toolSucceeded', tool: 'save' } },
        ],
      }),
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.milestones.map((m) => m.id)).toEqual(['collect', 'write']);
    expect(result.value.milestones[0].validator).toEqual({ type: 'marker', milestoneId: 'collect' });
    expect(result.value.milestones[1].validator).toEqual({ type: 'toolSucceeded', tool: 'save' });
  });

  it('puts explicit anchors and constraints first, then those found in the goal, numbered in order', () => {
    const result = parseTask(
      task('Compare at least 5 competitors. Do not use paid sources.', {
        anchors: [{ id: 'sources', text: '10 sources', target: 10, unit: 'sources', comparator: 'atLeast', hard: true }],
        constraints: ['Cite every number'],
      }),
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.anchors.map((a) => [a.id, a.target, a.unit])).toEqual([
      ['sources', 10, 'sources'],
      [expect.stringMatching(/^a\d+-competitors$/), 5, 'competitors'],
    ]);
    expect(result.value.constraints.map((c) => [c.id, c.text, c.source])).toEqual([
      ['c1', 'Cite every number', 'task'],
      ['c2', 'Do not use paid sources', 'goal'],
    ]);
  });

  it('keeps goal milestones valid when an explicit anchor replaces the one found in the goal', () => {
    const result = parseTask(
      task('1. Find at least 5 competitors\n2. Write the comparison', {
        anchors: [{ id: 'comp', text: 'at least 5 competitors', target: 5, unit: 'competitors', comparator: 'atLeast', hard: true }],
      }),
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.anchors.map((a) => a.id)).toEqual(['comp']);
    expect(result.value.milestones[0].validator).toEqual({
      type: 'any',
      of: [{ type: 'marker', milestoneId: result.value.milestones[0].id }, { type: 'anchorCount', anchorId: 'comp' }],
    });
  });

  it('names both ids of a dependency cycle', () => {
    const result = parseTask(
      task('g', {
        milestones: [
          { id: 'a', description: 'A', dependsOn: ['b'] },
          { id: 'b', description: 'B', dependsOn: ['a'] },
        ],
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('cycle');
    expect(result.error.ids.sort()).toEqual(['a', 'b']);
    expect(result.error.message).toMatch(/a/);
  });

  it('names an unknown dependency', () => {
    const result = parseTask(task('g', { milestones: [{ id: 'a', description: 'A', dependsOn: ['ghost'] }] }));
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'unknown_dependency', ids: ['ghost'] }) });
    if (!result.ok) expect(result.error.message).toContain('a->ghost');
  });

  it('rejects more than 7 explicit milestones, naming the ones over the cap', () => {
    const milestones = Array.from({ length: 9 }, (_v, i) => ({ id: `s${i + 1}`, description: `step ${i + 1}`, dependsOn: [] }));
    const result = parseTask(task('g', { milestones }));
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'too_many_milestones', ids: ['s8', 's9'] }) });
  });

  it('names duplicate ids and validators pointing at unknown anchors', () => {
    const dup = parseTask(task('g', { milestones: [{ id: 'a', description: 'A', dependsOn: [] }, { id: 'a', description: 'B', dependsOn: [] }] }));
    expect(dup).toEqual({ ok: false, error: expect.objectContaining({ code: 'duplicate_id', ids: ['a'] }) });
    const badAnchor = parseTask(
      task('g', { milestones: [{ id: 'a', description: 'A', dependsOn: [], validator: { type: 'anchorCount', anchorId: 'nope' } }] }),
    );
    expect(badAnchor).toEqual({ ok: false, error: expect.objectContaining({ code: 'invalid_spec', ids: ['a'] }) });
  });

  it('merges a goal of more than 7 steps into 7 milestones, keeping the tail in order', () => {
    const goal = Array.from({ length: 10 }, (_v, i) => `${i + 1}. task number ${i + 1}`).join('\n');
    const result = parseTask(task(goal));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.milestones).toHaveLength(MAX_MILESTONES);
    expect(result.value.milestones[5].description).toBe('task number 6');
    expect(result.value.milestones[6].description).toBe('task number 7; task number 8; task number 9; task number 10');
  });

  it('validates milestones that an anchor count completes', () => {
    const result = parseTask(task('1. Find at least 5 competitors\n2. Write the comparison'));
    if (!result.ok) throw new Error(result.error.message);
    const [first] = result.value.milestones;
    const anchor = result.value.anchors[0];
    expect(first.validator).toEqual({ type: 'any', of: [{ type: 'marker', milestoneId: first.id }, { type: 'anchorCount', anchorId: anchor.id }] });
  });
});
