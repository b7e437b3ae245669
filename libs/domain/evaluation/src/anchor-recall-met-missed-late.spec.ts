import { GoalPersistence } from './goal-persistence';
import { COMPETITORS, SOURCES, action, observation, output } from './persistence-steps.testing';

describe('anchor recall read from the final output', () => {
  it('counts an anchor met in the final output, one missed, and one met only after an earlier output lacked it', () => {
    const words: typeof SOURCES = { id: 'a-words', text: 'at most 40 words', target: 40, unit: 'words', comparator: 'atMost', hard: true };
    const tracker = new GoalPersistence({ anchors: [SOURCES, COMPETITORS, words] });
    tracker.onStep(action(0, 'web_search', { query: 'crm competitors' }));
    // Sources seen along the way do not count: only what the output hands over does.
    tracker.onStep(observation(1, 'https://a.example/1 https://b.example/2 https://c.example/3'));
    tracker.onStep(output(2, 'Done. Found 2 competitors: Acme and Globex. See https://a.example/1'));
    tracker.onStep(output(3, 'Revised: found 2 competitors, Acme and Globex, per https://a.example/1 and https://b.example/2.'));
    const report = tracker.report();

    expect(report.finalOutputSeq).toBe(3);
    expect(report.anchors['a-competitors']).toMatchObject({ finalCount: 2, outcome: 'met' });
    expect(report.anchors['a-sources']).toMatchObject({ finalCount: 2, reachedCount: 3, outcome: 'missed' });
    expect(report.anchors['a-words']).toMatchObject({ outcome: 'met' });
    expect(report.anchorRecall).toBeCloseTo(2 / 3);
  });

  it('marks an anchor met late when the first output lacked it and the last has it', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES] });
    tracker.onStep(output(0, 'Final report, sources: https://a.example/1'));
    tracker.onStep(output(1, 'Final report, sources: https://a.example/1 https://b.example/2 https://c.example/3'));
    const report = tracker.report();
    expect(report.anchors['a-sources']).toMatchObject({ finalCount: 3, outcome: 'metLate' });
    expect(report.anchorRecall).toBe(1);
  });

  it('misses every anchor of a run that produced no output, and reads a final_answer call as one', () => {
    const silent = new GoalPersistence({ anchors: [SOURCES] });
    silent.onStep(observation(0, 'https://a.example/1 https://b.example/2 https://c.example/3'));
    expect(silent.report()).toMatchObject({ anchorRecall: 0, finalOutputSeq: null });

    const code = new GoalPersistence({ anchors: [COMPETITORS] });
    code.onStep(action(0, 'final_answer', { answer: 'The 3 competitors are Acme, Globex and Initech' }));
    expect(code.report().anchors['a-competitors']).toMatchObject({ finalCount: 3, outcome: 'met' });
  });
});

describe('the final output of a code agent', () => {
  it('is the argument of final_answer(...) in its code; an empty final_answer call does not replace it', () => {
    const tracker = new GoalPersistence({ anchors: [COMPETITORS] });
    tracker.onStep(action(0, 'python', { code: 'names = find()\nfinal_answer("2 competitors: Acme, Globex")' }));
    tracker.onStep(action(1, 'final_answer', {}));
    expect(tracker.report()).toMatchObject({ finalOutputSeq: 0, anchorRecall: 1 });
  });
});
