// Long-term memory keeps conclusions, preferences, user corrections and data references; not temporary values or guesses.
import { classifyMemoryWrite, type MemoryCandidate } from './write-rules';

const decide = (c: MemoryCandidate) => classifyMemoryWrite(c);

describe('write rules for long-term memory', () => {
  it.each<[string, MemoryCandidate, string]>([
    ['a user correction', { source: 'feedback', text: 'Stop using the 2019 figures, they are outdated' }, 'correction'],
    ['a tentative user correction is still the user’s word', { source: 'feedback', text: 'maybe leave out the Asian market' }, 'correction'],
    ['a verified milestone result', { source: 'milestone_evidence', text: 'Found 5 competitors: A, B, C, D, E', verified: true }, 'conclusion'],
    ['a stated conclusion', { source: 'conclusion', text: 'Vendor B is the cheapest at $12 per seat' }, 'conclusion'],
    ['a verified conclusion in a message', { source: 'message', text: 'Confirmed: the API rate limit is 100 req/min', verified: true }, 'conclusion'],
    ['a preference', { source: 'message', text: 'The user prefers tables over bullet lists' }, 'preference'],
    ['a Chinese preference', { source: 'message', text: '用户偏好使用中文撰写报告' }, 'preference'],
    ['a data reference', { source: 'message', text: 'Pricing data is in s3://acme-research/pricing-2025.csv' }, 'reference'],
    ['a document link', { source: 'observation', text: 'Source: https://example.com/annual-report-2024.pdf' }, 'reference'],
  ])('keeps %s', (_label, candidate, kind) => {
    const d = decide(candidate);
    expect(d).toMatchObject({ write: true, kind });
    expect(d.reasons.length).toBeGreaterThan(0);
  });

  it.each<[string, MemoryCandidate, RegExp]>([
    ['a session id', { source: 'message', text: 'session id is 8f3a-22c1-9d0e' }, /temporary/],
    ['an agent variable', { source: 'variable', text: 'counter = 17 for the loop over pages' }, /temporary/],
    ['a pre-signed link', { source: 'observation', text: 'https://bucket.s3.amazonaws.com/x.csv?X-Amz-Expires=300&X-Amz-Signature=ab' }, /temporary/],
    ['a retry counter', { source: 'thought', text: 'attempt 3 of fetching the page' }, /temporary/],
    ['a hedged guess', { source: 'conclusion', text: 'Vendor C is probably the market leader' }, /unverified guess/],
    ['a Chinese guess', { source: 'conclusion', text: '这家公司可能是市场领导者' }, /unverified guess/],
    ['a conclusion marked unverified', { source: 'conclusion', text: 'Vendor D has 300 employees', verified: false }, /unverified guess/],
    ['raw tool output', { source: 'observation', text: '{"status":200,"items":[1,2,3]}' }, /raw tool output/],
    ['reasoning in progress', { source: 'thought', text: 'Let me look at the second page next' }, /reasoning/],
    ['a fragment', { source: 'conclusion', text: 'ok' }, /too short/],
  ])('skips %s', (_label, candidate, reason) => {
    const d = decide(candidate);
    expect(d.write).toBe(false);
    expect(d.kind).toBeUndefined();
    expect(d.reasons.join(' ')).toMatch(reason);
  });

  it('a hedged statement that was verified is kept', () => {
    expect(decide({ source: 'conclusion', text: 'It seems the API paginates by 50; confirmed by the docs', verified: true })).toMatchObject({
      write: true,
      kind: 'conclusion',
    });
  });
});
