/** Rule `countBound`: a tool category may be called at most N times ("搜索工具最多调用5次"). */
import { countsToward } from './constraint-check';
import { compileConstraints } from './constraint-rules';

const one = (text: string) => compileConstraints([{ id: 'c5', text, hard: true }])[0];

describe('countBound rule', () => {
  it('compiles an English search bound; searches count, reads do not', () => {
    const c = one('Call the search tool at most 5 times');
    expect(c.rules).toEqual([{ kind: 'countBound', category: 'search', max: 5 }]);
    expect(countsToward('search', 'web_search')).toBe(true);
    expect(countsToward('search', 'read_page')).toBe(false);
  });

  it('compiles a Chinese bound with a Chinese numeral', () => {
    expect(one('搜索工具最多调用五次').rules).toEqual([{ kind: 'countBound', category: 'search', max: 5 }]);
  });

  it('turns "fewer than N" into at most N-1, and a bound on any tool into no category', () => {
    expect(one('Use fewer than 10 tool calls').rules).toEqual([{ kind: 'countBound', max: 9 }]);
    expect(countsToward(undefined, 'anything')).toBe(true);
  });

  it('does not compile a count of the deliverable into a bound', () => {
    expect(one('Cite at least 10 sources').rules).toEqual([]);
  });
});
