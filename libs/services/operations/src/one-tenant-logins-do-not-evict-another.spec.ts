// Issue #29: sessions were capped at 10,000 process-wide, oldest evicted, so one tenant's 10,050 logins
// logged every other tenant out. Sessions are capped per tenant: a tenant's own oldest session goes.
import { SessionBook, SESSION_COOKIE } from './session-book';

const cookie = (token: string) => `${SESSION_COOKIE}=${token}`;

describe("one tenant's logins", () => {
  it("do not evict another tenant's session: 10,050 logins of A leave B logged in and A at its cap", () => {
    const book = new SessionBook();
    const b = book.open({ tenantId: 'globex', operator: true, keyHash: 'b' });
    const a: string[] = [];
    for (let i = 0; i < 10_050; i++) a.push(book.open({ tenantId: 'acme', operator: true, keyHash: 'a' }));

    expect(book.tenantOfCookie(cookie(b))).toMatchObject({ tenantId: 'globex' });
    expect(book.size).toBe(21); // 20 of acme + globex's one
    expect(book.tenantOfCookie(cookie(a[0]))).toBeUndefined();
    expect(book.tenantOfCookie(cookie(a[a.length - 21]))).toBeUndefined();
    for (const token of a.slice(-20)) expect(book.tenantOfCookie(cookie(token))).toMatchObject({ tenantId: 'acme' });
  });

  it('still bounds the process: past the global cap the oldest session of any tenant goes', () => {
    const book = new SessionBook(Date.now, 50, 20);
    const first = book.open({ tenantId: 't0', operator: false });
    for (let t = 1; t <= 50; t++) book.open({ tenantId: `t${t}`, operator: false });
    expect(book.size).toBe(50);
    expect(book.tenantOfCookie(cookie(first))).toBeUndefined();
  });

  it('closes a session on demand', () => {
    const book = new SessionBook();
    const token = book.open({ tenantId: 'acme', operator: true });
    book.close(token);
    expect(book.sessionOfCookie(cookie(token))).toBeUndefined();
    expect(book.size).toBe(0);
  });
});
