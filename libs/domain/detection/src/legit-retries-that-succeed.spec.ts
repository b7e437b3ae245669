/** Legitimate work: retrying a call that failed for a passing reason (a timeout, a 503) until it succeeds. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('retries that succeed', () => {
  it('flags nothing when the same request times out twice and then succeeds', () => {
    const s = steps();
    const events = [
      s.act('http_get', { url: 'https://api.example.com/v1/orders/8841' }),
      s.fail('http_get', 'Request timed out after 30000 ms'),
      s.act('http_get', { url: 'https://api.example.com/v1/orders/8841' }),
      s.fail('http_get', 'Request timed out after 30000 ms'),
      s.act('http_get', { url: 'https://api.example.com/v1/orders/8841' }),
      s.ok('http_get', { id: 8841, status: 'shipped', items: 3 }),
    ];
    expect(runAll(engineFor(), events)).toEqual([]);
  });

  it('flags nothing when a 503 is retried until the service answers', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 2; i++) events.push(s.act('fetch_report', { id: 'q3' }), s.fail('fetch_report', 'HTTP 503 Service Unavailable'));
    events.push(s.act('fetch_report', { id: 'q3' }), s.ok('fetch_report', 'Q3 revenue 4.1bn'));
    expect(runAll(engineFor(), events)).toEqual([]);
  });

  it('still flags a retry of a call that failed for a reason retrying cannot fix', () => {
    const s = steps();
    const error = "PageDownTool.forward() got an unexpected keyword argument 'page_down'";
    const events = [s.act('page_down', { page_down: '' }), s.fail('page_down', error), s.act('page_down', { page_down: '' }), s.fail('page_down', error)];
    expect(runAll(engineFor(), events).map((d) => d.detector)).toEqual(['near_duplicate_calls']);
  });
});
