/** Evidence that names things: deviations carry redacted previews of the args, what changed, the error, the milestone. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('deviation evidence', () => {
  it('names the reworded field, both queries, the repeated error and the milestone of a near-duplicate', () => {
    const s = steps();
    const error = 'No results found for query: acme pricing 2025';
    const out = runAll(engineFor(), [
      s.milestone('m2', 'started'),
      s.act('web_search', { query: 'acme pricing 2025', api_key: 'k-12345678-secret' }),
      s.fail('web_search', error),
      s.act('web_search', { query: 'acme price list 2025', api_key: 'k-12345678-secret' }),
      s.fail('web_search', error),
    ]).filter((d) => d.detector === 'near_duplicate_calls');
    expect(out).toHaveLength(1);
    expect(out[0].evidence).toMatchObject({
      tool: 'web_search',
      argsPreview: '{"api_key":"[redacted]","query":"acme price list 2025"}',
      previousArgsPreview: '{"api_key":"[redacted]","query":"acme pricing 2025"}',
      changedFields: 'query',
      errorPreview: error,
      milestone: 'm2',
    });
  });

  it('names the failing call of an error_repeat and the other side of a ping-pong', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 4; i++) events.push(s.act('read_file', { path: '/data/q3.csv' }), s.fail('read_file', 'ENOENT: no such file /data/q3.csv'));
    const errors = runAll(engineFor({ nearDuplicate: { enabled: false } }), events).filter((d) => d.detector === 'error_repeat');
    expect(errors[0].evidence).toMatchObject({ tool: 'read_file', argsPreview: '{"path":"/data/q3.csv"}', errorPreview: 'ENOENT: no such file /data/q3.csv' });

    const p = steps();
    const pingPong = [];
    for (let i = 0; i < 6; i++) pingPong.push(p.act('open_tab', { url: 'https://a.example.com' }), p.ok('open_tab', 'opened'), p.act('close_tab', { id: 1 }), p.ok('close_tab', 'closed'));
    const pp = runAll(engineFor({ profile: 'openclaw', loop: { warning: 5, critical: 10 } }), pingPong).filter((d) => d.detector === 'ping_pong');
    expect(pp[0].evidence).toMatchObject({ argsPreview: expect.any(String), pairedTool: expect.any(String), pairedArgsPreview: expect.any(String) });
    expect([pp[0].evidence.argsPreview, pp[0].evidence.pairedArgsPreview].sort()).toEqual(['{"id":1}', '{"url":"https://a.example.com"}']);
  });
});
