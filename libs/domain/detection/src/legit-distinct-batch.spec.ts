/** Legitimate work: one tool applied over many distinct targets is a batch, not a loop. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('a batch over distinct targets', () => {
  it('flags nothing when 30 different customers are fetched, each with its own record', () => {
    const s = steps();
    const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth'];
    const events = [];
    for (let i = 0; i < 30; i++) {
      events.push(s.act('get_customer', { id: `cust-${1000 + i * 37}` }));
      events.push(s.ok('get_customer', { id: `cust-${1000 + i * 37}`, name: `${names[i % names.length]} ${i}`, orders: (i * 7) % 13, city: ['Paris', 'Lyon', 'Oslo', 'Rome', 'Kyiv'][i % 5] }));
    }
    const out = runAll(engineFor(), events);
    expect(out.filter((d) => d.detector !== 'stagnation')).toEqual([]);
  });
});
