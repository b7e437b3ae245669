// WAYFINDER_API_KEYS parsing: every well-formed list seeds its keys; a malformed entry is named.
import fc from 'fast-check';
import { hashApiKey, parseApiKeysVariable } from './api-keys';

describe('WAYFINDER_API_KEYS', () => {
  it('seeds tenant:key pairs, the key may contain ":"', () => {
    expect(parseApiKeysVariable('acme:k-acme-123, globex:k:with:colons ,')).toEqual({
      ok: true,
      value: [
        { tenantId: 'acme', hash: hashApiKey('k-acme-123') },
        { tenantId: 'globex', hash: hashApiKey('k:with:colons') },
      ],
    });
    expect(parseApiKeysVariable(undefined)).toEqual({ ok: true, value: [] });
  });

  it('names the bad entry', () => {
    expect(parseApiKeysVariable('acme:k-acme-123,nocolon')).toEqual({ ok: false, error: "entry 2 must be tenant:key (no ':' found)" });
    expect(parseApiKeysVariable(':k-acme-123')).toEqual({ ok: false, error: 'entry 1: the tenant must not be empty' });
    expect(parseApiKeysVariable('acme:short')).toMatchObject({ ok: false, error: expect.stringContaining('at least 8 characters') });
  });

  it('round-trips any list of valid pairs (property)', () => {
    const tenant = fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/);
    const key = fc.stringMatching(/^[A-Za-z0-9:_-]{8,40}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(tenant, key), { maxLength: 8 }), (pairs) => {
        const parsed = parseApiKeysVariable(pairs.map(([t, k]) => `${t}:${k}`).join(','));
        expect(parsed).toEqual({ ok: true, value: pairs.map(([t, k]) => ({ tenantId: t, hash: hashApiKey(k) })) });
      }),
    );
  });

  it('never throws on arbitrary input (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => void parseApiKeysVariable(s)));
  });
});
