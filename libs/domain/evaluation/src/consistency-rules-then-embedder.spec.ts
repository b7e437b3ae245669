import { HashingEmbedder } from '@wayfinder/embeddings';
import { GoalPersistence } from './goal-persistence';
import { SOURCES, action, observation, thought } from './persistence-steps.testing';

const MILESTONES = [
  { id: 'find', description: 'Find the main competitors and their websites' },
  { id: 'pricing', description: 'Collect the pricing plans of each competitor' },
];

describe('trajectory consistency: rules first, the embedder for the rest', () => {
  it('decides by rule the steps sharing terms with the current milestone, repeats, and anchor progress', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES], milestones: MILESTONES });
    tracker.onStep(action(0, 'web_search', { query: 'main competitors websites crm' })); // shares 3 terms: serves
    tracker.onStep(observation(1, 'https://a.example/1')); // the sources anchor moves: serves
    tracker.onStep(action(2, 'read_file', { path: 'notes.txt' })); // no rule: undecided, no embedder → not serving
    tracker.onStep(action(3, 'read_file', { path: 'notes.txt' })); // exact repeat: not serving, by rule
    tracker.onStep(action(4, 'web_search', { query: 'pricing plans competitor' }), { milestoneId: 'pricing' }); // localized on pricing: serves
    const report = tracker.report();
    expect(report.judgedSteps).toBe(5);
    expect(report.trajectoryConsistency).toBeCloseTo(3 / 5);
    expect(report.ruleCoverage).toBeCloseTo(4 / 5);
  });

  it('asks the embedder only about what no rule decided, and counts those steps outside rule coverage', () => {
    const embedder = new HashingEmbedder();
    const calls: string[] = [];
    const spy = {
      id: embedder.id,
      name: embedder.name,
      dimension: embedder.dimension,
      embed: (texts: readonly string[]) => embedder.embed(texts),
      embedSync: (t: string) => (calls.push(t), embedder.embedSync(t)),
    };
    const tracker = new GoalPersistence({ anchors: [], milestones: MILESTONES }, { embedder: spy, similarityThreshold: 0.2 });
    calls.length = 0;
    tracker.onStep(action(0, 'web_search', { query: 'competitors websites' })); // rule
    tracker.onStep(thought(1, 'competitor websites list')); // rule: 'competitor', 'website'
    tracker.onStep(thought(2, 'main competitors')); // one shared term ('main' and 'competitor' are two): rule
    tracker.onStep(thought(3, 'competitors')); // one term: the embedder decides
    tracker.onStep(thought(4, 'sourdough starter hydration')); // no term: the embedder decides
    const report = tracker.report();
    expect(calls).toEqual(['competitors', 'sourdough starter hydration']);
    expect(report.ruleCoverage).toBeCloseTo(3 / 5);
    expect(report.trajectoryConsistency).toBeGreaterThanOrEqual(3 / 5);
    expect(report.trajectoryConsistency).toBeLessThan(1);
  });

  it('stops counting a met anchor as open', () => {
    const tracker = new GoalPersistence({ anchors: [SOURCES] });
    tracker.onStep(observation(0, 'https://a.example/1 https://b.example/2 https://c.example/3'));
    tracker.onStep(thought(1, 'more sources at least 3 sources')); // would share terms, but the anchor is met
    expect(tracker.report().trajectoryConsistency).toBe(0.5);
  });
});
