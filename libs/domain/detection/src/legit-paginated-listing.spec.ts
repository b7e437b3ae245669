/** Legitimate work: walking a paginated listing page by page is no rephrasing, even when pages read alike. */
import { engineFor, runAll, steps } from './test-support/step-builder';

const pageOf = (n: number) => `Showing page ${n} of 12 of invoices in folder /billing/2025. Status: paid, paid, pending, paid, overdue.`;

describe('a paginated listing', () => {
  it('flags nothing over 12 pages whose args differ only in the page number', () => {
    const s = steps();
    const events = [];
    for (let page = 1; page <= 12; page++) {
      events.push(s.act('list_invoices', { folder: '/billing/2025', page, pageSize: 50 }));
      events.push(s.ok('list_invoices', pageOf(page)));
    }
    expect(runAll(engineFor(), events).filter((d) => d.detector !== 'stagnation')).toEqual([]);
  });

  it('still flags the same page read again and again (the page number is what makes it new)', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 4; i++) {
      events.push(s.act('list_invoices', { folder: '/billing/2025', page: 3, pageSize: 50 }));
      events.push(s.ok('list_invoices', pageOf(3)));
    }
    expect(runAll(engineFor(), events).some((d) => d.detector === 'near_duplicate_calls')).toBe(true);
  });
});
