// Hints are specific: they name the tool, the repeated arguments or error, the milestone, the constraint and the next action.
import { buildHintText } from './hint-text';
import { deviation, testMap } from './ladder-scenario.testing';

describe('hint texts', () => {
  it('a repeated call names the tool, its arguments, the milestone, the constraint and the next action', () => {
    const text = buildHintText({
      deviation: deviation('generic_repeat', 10, { count: 11, evidence: { tool: 'web_search', args: { q: 'acme pricing' } } }),
      map: testMap(),
      milestoneId: 'm2',
    });
    expect(text).toContain('`web_search`');
    expect(text).toContain('{"q":"acme pricing"}');
    expect(text).toContain('11 times');
    expect(text).toContain('milestone m2 ("Collect pricing for 5 competitors")');
    expect(text).toContain('1. Only use public sources');
    expect(text).toMatch(/Next action: do not call `web_search` with \{"q":"acme pricing"\} again/);
  });

  it('a repeated error names the error and asks to fix its cause', () => {
    const text = buildHintText({
      deviation: deviation('error_repeat', 7, { count: 4, evidence: { tool: 'read_file', error: 'ENOENT: no such file /data/q3.csv' } }),
      map: testMap(),
      milestoneId: 'm1',
    });
    expect(text).toContain('`read_file` failed 4 times with the same error: ENOENT: no such file /data/q3.csv');
    expect(text).toContain('Next action: do not retry `read_file` unchanged; fix the cause of "ENOENT: no such file /data/q3.csv"');
    expect(text).toContain('milestone m1 ("Find the list of competitors")');
  });

  it('a ping-pong names both tools; a relapse says the problem is back', () => {
    const text = buildHintText({
      deviation: deviation('ping_pong', 12, { evidence: { tool: 'open_tab', pairedTool: 'close_tab' } }),
      map: testMap(),
      milestoneId: 'm3',
      relapse: true,
      failureReason: 'hint at seq 4 did not hold',
    });
    expect(text).toContain('The same problem is back');
    expect(text).toContain('`open_tab` and `close_tab`');
    expect(text).toContain('Previous attempt failed: hint at seq 4 did not hold');
  });

  it('stays within the contract limit whatever the evidence size', () => {
    const huge = 'x'.repeat(50_000);
    const text = buildHintText({
      deviation: deviation('error_repeat', 7, { evidence: { tool: 'read_file', error: huge } }),
      milestoneId: null,
    });
    expect(text.length).toBeLessThanOrEqual(8192);
    expect(text).toContain('the current milestone');
  });
});
