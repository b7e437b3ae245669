/**
 * P7 (PROJECT-RULES.md): a search rephrased again and again that keeps finding nothing is no progress,
 * whatever its wording; the same tool's outcomes count, failures and empty results alike.
 */
import { engineFor, runAll, steps } from './test-support/step-builder';

const loops = (out: ReturnType<typeof runAll>) => out.filter((d) => d.detector !== 'stagnation');

describe('fruitless streak: rephrased searches that keep finding nothing', () => {
  it('warns at the fourth outcome in a row that failed or found nothing, naming the tool', () => {
    const s = steps();
    const first = [
      s.act('python', { code: "print(search_files(tree, 'personname'))" }),
      s.ok('python', 'Execution logs:\nFiles related to personname: []\nFiles that might contain PersonName3: []'),
      s.act('python', { code: "print(list_dir(content, 'pydicom-pydicom/pydicom'))" }),
      s.ok('python', 'Execution logs:\nFiles in pydicom directory (first 20): []'),
      s.act('python', { code: "print(grep(content, r'class PersonName3'))" }),
      s.fail('python', "NameError: name 'grep' is not defined"),
    ];
    const engine = engineFor();
    // Three are a signal only (balanced loop.fruitlessStreakWarning 4, chosen by cross-validation).
    expect(loops(runAll(engine, first))).toEqual([]);
    const out = runAll(engine, [s.act('python', { code: "print(re.findall(r'PersonName3', content)[:5])" }), s.ok('python', 'Execution logs:\nNo references to PersonName3 found.')]);
    expect(loops(out)).toEqual([
      expect.objectContaining({ detector: 'error_repeat', level: 'warning', count: 4, atSeq: 7, loopStartSeq: 0, evidence: expect.objectContaining({ tool: 'python', fruitless: true }) }),
    ]);
  });

  it('goes critical at the eighth, with queries that never repeat exactly', () => {
    const s = steps();
    const events = [];
    for (const q of ['L031 rule file', 'rule L031 path', 'L031.py location', 'sqlfluff rules L031', 'class Rule_L031', 'L031 definition', 'L031 docstring', 'Rule_L031 _eval']) {
      events.push(s.act('search_code', { query: q }));
      events.push(s.ok('search_code', `Found 0 code sections mentioning ${q}`));
    }
    const levels = loops(runAll(engineFor(), events)).filter((d) => d.evidence['fruitless'] === true).map((d) => `${d.level}@${d.count}`);
    expect(levels).toEqual(['warning@4', 'critical@8']);
  });
});

describe('fruitless streak: not stuck', () => {
  it('is not flagged when a search in between finds something', () => {
    const s = steps();
    const out = runAll(engineFor(), [
      s.act('search_code', { query: 'PersonName3' }),
      s.ok('search_code', 'No results found for PersonName3'),
      s.act('search_code', { query: 'PersonName' }),
      s.ok('search_code', 'pydicom/valuerep.py:812: class PersonName:'),
      s.act('search_code', { query: 'PersonName.__iter__' }),
      s.ok('search_code', 'No results found for PersonName.__iter__'),
      s.act('search_code', { query: 'PersonName.__contains__' }),
      s.ok('search_code', 'No results found'),
    ]);
    expect(loops(out)).toEqual([]);
  });

  it('is not flagged for writes and clean runs that print nothing, None or "Errors: 0"', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 6; i++) {
      events.push(s.act('python', { code: `open("out/part-${i}.txt", "w").write(chunks[${i}])` }));
      events.push(s.ok('python', i % 3 === 0 ? '' : i % 3 === 1 ? 'Execution logs:\nLast output from code snippet:\nNone' : `Tests passed: ${i * 4}\nErrors: 0`));
    }
    expect(loops(runAll(engineFor(), events))).toEqual([]);
  });

  it('is not flagged for a poll that says there is nothing yet (known_poll_no_progress judges polls)', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 6; i++) {
      events.push(s.act('inbox_status', { since: `2026-01-01T00:0${i}:00Z` }));
      events.push(s.ok('inbox_status', 'No new messages found'));
    }
    expect(loops(runAll(engineFor(), events)).filter((d) => d.evidence['fruitless'] === true)).toEqual([]);
  });

  it('starts over after a milestone: finding nothing for the next milestone is a new search', () => {
    const s = steps();
    const out = runAll(engineFor(), [
      s.act('web_search', { query: 'Fafnir journal June 2014 Midkiff' }),
      s.ok('web_search', 'No results found'),
      s.act('web_search', { query: 'Emily Midkiff dragons 2014' }),
      s.ok('web_search', 'No results found'),
      s.milestone('find-article'),
      s.act('web_search', { query: 'Fafnir journal word quoted by two authors' }),
      s.ok('web_search', 'No results found'),
      s.act('web_search', { query: 'Midkiff tricksy dragons quote' }),
      s.ok('web_search', 'No results found'),
    ]);
    expect(loops(out).filter((d) => d.evidence['fruitless'] === true)).toEqual([]);
  });

  it('leaves a streak of failures only to the upstream error_repeat and P3 (no second alarm for it)', () => {
    const s = steps();
    const events = [];
    for (const cmd of ['make', 'make all', 'make -j2']) {
      events.push(s.act('shell', { cmd }));
      events.push(s.fail('shell', `${cmd}: missing header foo.h`));
    }
    expect(loops(runAll(engineFor(), events)).filter((d) => d.evidence['fruitless'] === true)).toEqual([]);
  });
});
