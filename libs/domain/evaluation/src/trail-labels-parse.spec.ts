import fc from 'fast-check';
import { parseTrailLabels } from './trail-labels';

describe('parseTrailLabels', () => {
  it('reads rows and lower-cases categories', () => {
    const result = parseTrailLabels([
      { file: 'a.jsonl', traceId: 'a', dataset: 'gaia', events: 3, errors: [{ category: ' Resource  Abuse', spanId: 's', seqs: [1, 2] }] },
    ]);
    expect(result).toEqual({
      ok: true,
      value: [{ file: 'a.jsonl', traceId: 'a', dataset: 'gaia', events: 3, errors: [{ category: 'resource abuse', spanId: 's', seqs: [1, 2] }] }],
    });
  });

  it('names the bad field of a malformed row', () => {
    expect(parseTrailLabels([{ file: 'a.jsonl', traceId: 'a', errors: [{ category: 'x', seqs: ['1'] }] }])).toEqual({
      ok: false,
      error: 'labels[0].errors[0].seqs: must be an array of integers',
    });
    expect(parseTrailLabels({})).toEqual({ ok: false, error: 'labels: must be an array of trace rows' });
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = parseTrailLabels(value);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});
