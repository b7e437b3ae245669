/** near_duplicate_calls: a search rephrased again and again while the results bring nothing new. */
import { engineFor, runAll, steps } from './test-support/step-builder';

const page = (q: string) => `Address: google: ${q}\nTitle: ${q} - Search\n1. ACME Corp annual report 2023 - investors.acme.com\n2. ACME revenue overview - finance.example.com\n3. ACME quarterly results archive`;

describe('rephrased searches with nothing new', () => {
  it('warns at the third reworded repeat with nothing new (a first one is only a signal), escalates at the critical count and names where it began', () => {
    const engine = engineFor();
    const s = steps();
    const queries = ['ACME latest quarterly revenue', 'latest quarterly revenue of ACME', 'ACME latest quarterly revenue figures', 'ACME latest quarterly revenue report', 'ACME latest quarterly revenue numbers', 'ACME latest quarterly revenue 10-Q'];
    const out = runAll(engine, queries.flatMap((q) => [s.act('web_search', { query: q }), s.ok('web_search', page(q))])).filter((d) => d.detector === 'near_duplicate_calls');
    expect(out[0]).toMatchObject({ level: 'warning', count: 3, atSeq: 7, loopStartSeq: 0 });
    expect(out.some((d) => d.level === 'critical' && d.count === 4)).toBe(true);
    expect(out[0].message).toContain('web_search');
  });

  it('stays quiet when the reworded search finds something new', () => {
    const engine = engineFor();
    const s = steps();
    const out = runAll(engine, [
      s.act('web_search', { query: 'ACME latest quarterly revenue' }),
      s.ok('web_search', page('ACME latest quarterly revenue')),
      s.act('web_search', { query: 'latest quarterly revenue of ACME' }),
      s.ok('web_search', 'Reuters: ACME Q3 revenue rose 12% to $4.1bn, beating analyst estimates; guidance raised for the full year'),
    ]);
    expect(out).toEqual([]);
  });

  it('treats the same failing call retried as a near-duplicate (same error, no new data)', () => {
    const engine = engineFor();
    const s = steps();
    const out = runAll(engine, [
      s.act('page_down', { '': '' }),
      s.fail('page_down', "PageDownTool.forward() got an unexpected keyword argument ''"),
      s.act('page_down', { '': {} }),
      s.fail('page_down', "PageDownTool.forward() got an unexpected keyword argument ''"),
    ]);
    expect(out.map((d) => [d.detector, d.level, d.atSeq])).toEqual([['near_duplicate_calls', 'warning', 3]]);
  });
});
