import { evaluateValidator } from './validators';
import { action, message, milestone, observation } from './testing/step-builders';

describe('evaluateValidator', () => {
  it('marker: only a done signal for its own milestone', () => {
    expect(evaluateValidator({ type: 'marker' }, milestone('m1'), { milestoneId: 'm1' })).toBe(true);
    expect(evaluateValidator({ type: 'marker' }, milestone('m1', 'started'), { milestoneId: 'm1' })).toBe(false);
    expect(evaluateValidator({ type: 'marker', milestoneId: 'm2' }, milestone('m1'), { milestoneId: 'm1' })).toBe(false);
    expect(evaluateValidator({ type: 'marker' }, milestone('m1'))).toBe(false);
  });

  it('regex: matches the chosen part of the step; a bad pattern is false, not an exception', () => {
    const v = { type: 'regex' as const, pattern: 'report (saved|written)', flags: 'i', on: 'observation' as const };
    expect(evaluateValidator(v, observation('save', 'Report SAVED to out.md'))).toBe(true);
    expect(evaluateValidator(v, message('report saved'))).toBe(false);
    expect(evaluateValidator({ type: 'regex', pattern: 'report saved' }, message('the report saved fine'))).toBe(true);
    expect(evaluateValidator({ type: 'regex', pattern: '([' }, message('(['))).toBe(false);
  });

  it('jsonField: reads paths in structured or JSON-text content', () => {
    expect(evaluateValidator({ type: 'jsonField', path: 'result.items[1].ok', equals: true }, observation('api', { result: { items: [{ ok: false }, { ok: true }] } }))).toBe(true);
    expect(evaluateValidator({ type: 'jsonField', path: 'status', equals: 'done' }, observation('api', '{"status":"done"}'))).toBe(true);
    expect(evaluateValidator({ type: 'jsonField', path: 'status', equals: 'done' }, observation('api', '{"status":"running"}'))).toBe(false);
    expect(evaluateValidator({ type: 'jsonField', path: 'status' }, observation('api', 'not json'))).toBe(false);
    expect(evaluateValidator({ type: 'jsonField', path: 'path' }, action('write_file', { path: 'a.json' }))).toBe(true);
  });

  it('toolSucceeded: an ok observation of that tool only', () => {
    expect(evaluateValidator({ type: 'toolSucceeded', tool: 'save' }, observation('save', 'ok'))).toBe(true);
    expect(evaluateValidator({ type: 'toolSucceeded', tool: 'save' }, observation('save', 'disk full', false))).toBe(false);
    expect(evaluateValidator({ type: 'toolSucceeded', tool: 'save' }, action('save'))).toBe(false);
  });

  it('anchorCount: the tally against atLeast or the anchor target', () => {
    const ctx = { anchorCounts: { comp: 4 }, anchorTargets: { comp: 5 } };
    expect(evaluateValidator({ type: 'anchorCount', anchorId: 'comp' }, message('x'), ctx)).toBe(false);
    expect(evaluateValidator({ type: 'anchorCount', anchorId: 'comp', atLeast: 4 }, message('x'), ctx)).toBe(true);
    expect(evaluateValidator({ type: 'anchorCount', anchorId: 'comp' }, message('x'), { ...ctx, anchorCounts: { comp: 5 } })).toBe(true);
    expect(evaluateValidator({ type: 'anchorCount', anchorId: 'other' }, message('x'), ctx)).toBe(false);
  });

  it('all / any combine', () => {
    const step = observation('save', 'saved report.md');
    const yes = { type: 'toolSucceeded' as const, tool: 'save' };
    const no = { type: 'regex' as const, pattern: 'pdf' };
    expect(evaluateValidator({ type: 'all', of: [yes, no] }, step)).toBe(false);
    expect(evaluateValidator({ type: 'any', of: [no, yes] }, step)).toBe(true);
    expect(evaluateValidator({ type: 'all', of: [yes, { type: 'regex', pattern: 'report' }] }, step)).toBe(true);
  });
});
