/** cycle_repeat (P2): never over calls that were all different, whatever their outcomes. */
import type { StepEvent } from '@wayfinder/contracts';
import { engineFor, runAll, steps } from './test-support/step-builder';

const cycles = (events: StepEvent[], profile?: 'strict') => runAll(engineFor(profile ? { profile } : {}), events).filter((d) => d.detector === 'cycle_repeat');

describe('calls that were all different', () => {
  it('make no cycle: distinct tools and args with one outcome, one tool with new args, a pattern of tools over new targets', () => {
    const s = steps();
    const tools: StepEvent[] = [];
    for (let i = 0; i < 40; i++) tools.push(s.act(`tool${i % 4}`, { n: i }), s.ok(`tool${i % 4}`, 'done'));
    expect(cycles(tools)).toEqual([]);
    expect(cycles(tools, 'strict')).toEqual([]);

    const t = steps();
    const searches: StepEvent[] = [];
    for (let i = 0; i < 12; i++) searches.push(t.act('search', { q: `acme revenue ${2010 + i}` }), t.ok('search', 'No results found'));
    expect(cycles(searches, 'strict')).toEqual([]);

    const u = steps();
    const pattern: StepEvent[] = [];
    for (let i = 0; i < 8; i++) pattern.push(u.act('open', { url: `https://docs.example.com/p/${i}` }), u.ok('open', 'page'), u.act('summarize', { id: `p${i}` }), u.ok('summarize', 'summary'), u.act('save_note', { key: `n${i}` }), u.ok('save_note', 'saved'));
    expect(cycles(pattern, 'strict')).toEqual([]);
  });

  it('while the same calls in the same order with the same outcomes are one (the rule still fires)', () => {
    const s = steps();
    const events: StepEvent[] = [];
    for (let i = 0; i < 3; i++) events.push(s.act('open', { url: 'https://docs.example.com/p/1' }), s.ok('open', 'page'), s.act('summarize', { id: 'p1' }), s.ok('summarize', 'summary'));
    events.push(s.act('open', { url: 'https://docs.example.com/p/1' }));
    expect(cycles(events).map((d) => [d.level, d.count])).toEqual([['warning', 3]]);
  });
});
