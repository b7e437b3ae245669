/** Evidence previews: bounded and one line, with secret-looking values redacted. */
import fc from 'fast-check';
import { preview, PREVIEW_CHARS } from './preview';

describe('evidence previews', () => {
  it.each([
    ['an API key field', '{"api_key":"a1b2c3d4e5f6g7h8","q":"acme"}', 'a1b2c3d4e5f6g7h8'],
    ['a bearer token', 'Authorization: Bearer eyJhbGciOi.xyz123abc.sig456def', 'eyJhbGciOi'],
    ['an OpenAI-style key', 'use sk-proj-AbCdEfGhIjKlMnOpQrSt to call', 'sk-proj-AbCdEfGhIjKlMnOpQrSt'],
    ['a GitHub token', 'git push https://ghp_0123456789abcdefghijABCDEFGHIJ@github.com/x', 'ghp_0123456789abcdefghijABCDEFGHIJ'],
    ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    ['a password in a URL query', 'https://db.example.com/login?user=bob&password=hunter22', 'hunter22'],
    ['an e-mail address', 'send the invoice to jane.doe@example.com today', 'jane.doe@example.com'],
    ['a long hex secret', 'secret 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', '9f86d081884c7d659a2feaa0c55ad015'],
  ])('redacts %s', (_what, text, secret) => {
    const out = preview(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  it('keeps ordinary words, paths and ids readable', () => {
    expect(preview({ path: 'src/routes/users.ts', query: 'ACME quarterly revenue', id: 'cust-1037' })).toBe('{"id":"cust-1037","path":"src/routes/users.ts","query":"ACME quarterly revenue"}');
  });

  it('is one line of at most PREVIEW_CHARS characters for any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 5000 }), fc.jsonValue()), (value) => {
        const out = preview(value);
        return out.length <= PREVIEW_CHARS && !/[\n\r]/.test(out);
      }),
      { numRuns: 300 },
    );
  });
});
