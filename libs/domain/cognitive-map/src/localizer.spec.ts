import type { CognitiveMap } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { Localizer } from './localizer';
import { parseTask } from './task-parser';
import { action, message, milestone, observation, task } from './testing/step-builders';

const embedder = new HashingEmbedder();

function mapOf(spec: Parameters<typeof task>[1], goal = 'g'): CognitiveMap {
  const r = parseTask(task(goal, spec));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const linear = mapOf({
  milestones: [
    { id: 'search', description: 'search the web for electric scooter competitors and their prices', dependsOn: [] },
    { id: 'compare', description: 'compare battery range weight and price in a table', dependsOn: ['search'], validator: { type: 'toolSucceeded', tool: 'make_table' } },
    { id: 'write', description: 'write the final market report document', dependsOn: ['compare'] },
  ],
});

describe('Localizer', () => {
  it('starts at the first milestone with nothing completed', () => {
    const l = new Localizer(linear, embedder);
    expect(l.position).toEqual({ milestoneId: 'search', completed: [], progress: 0, confidence: 0, method: 'unknown' });
  });

  it('an explicit done signal completes the milestone and moves to the next one', () => {
    const l = new Localizer(linear, embedder);
    const p = l.onStep(milestone('search'));
    expect(p).toMatchObject({ milestoneId: 'compare', completed: ['search'], method: 'signal', confidence: 1 });
    expect(p.progress).toBeCloseTo(1 / 3);
  });

  it('a validator completes its milestone and every milestone it depends on', () => {
    const l = new Localizer(linear, embedder);
    const p = l.onStep(observation('make_table', 'table ready'));
    expect(p).toMatchObject({ milestoneId: 'write', completed: ['search', 'compare'], method: 'validator' });
  });

  it('similarity moves the position forward with a confidence below the validator trust', () => {
    const l = new Localizer(linear, embedder);
    const p = l.onStep(message('Now I will write the final market report document with all sections.'));
    expect(p.milestoneId).toBe('write');
    expect(p.method).toBe('similarity');
    expect(p.completed).toEqual([]);
    expect(p.confidence).toBeGreaterThan(0);
    expect(p.confidence).toBeLessThan(0.9);
  });

  it('needs a weak similarity match twice in a row before it moves, since it cannot move back', () => {
    const l = new Localizer(linear, embedder, { strongSimilarity: 0.99 });
    const weak = () => message('Drafting the market report now.');
    expect(l.onStep(weak()).milestoneId).toBe('search');
    expect(l.onStep(message('search the web for electric scooter competitors and their prices')).milestoneId).toBe('search');
    expect(l.onStep(weak()).milestoneId).toBe('search');
    expect(l.onStep(weak())).toMatchObject({ milestoneId: 'write', method: 'similarity' });
  });

  it('signal beats validator beats similarity on the same kind of evidence', () => {
    const l = new Localizer(linear, embedder);
    // The text of this observation is about writing the report (similarity → write), but the validator of
    // `compare` passes: the validator wins.
    expect(l.onStep(observation('make_table', 'write the final market report document')).method).toBe('validator');
    // A signal that `write` started, then a step similar to an earlier milestone: the signal's position holds.
    expect(l.onStep(milestone('write', 'started'))).toMatchObject({ milestoneId: 'write', method: 'signal' });
    expect(l.onStep(message('search the web for electric scooter competitors and their prices')).milestoneId).toBe('write');
  });

  it('never moves backward: late signals and similar-looking steps for completed milestones are ignored', () => {
    const l = new Localizer(linear, embedder);
    l.onStep(milestone('compare'));
    expect(l.position.completed).toEqual(['search', 'compare']);
    expect(l.onStep(milestone('search', 'started')).milestoneId).toBe('write');
    expect(l.onStep(action('web_search', { query: 'electric scooter competitors and their prices' })).milestoneId).toBe('write');
    expect(l.position.completed).toEqual(['search', 'compare']);
  });

  it('reports null and progress 1 once every milestone is done', () => {
    const l = new Localizer(linear, embedder);
    l.onStep(milestone('write'));
    expect(l.position).toMatchObject({ milestoneId: null, progress: 1, completed: ['search', 'compare', 'write'] });
  });

  it('ignores signals for unknown milestones', () => {
    const l = new Localizer(linear, embedder);
    expect(l.onStep(milestone('nope'))).toMatchObject({ milestoneId: 'search', method: 'unknown' });
  });

  it('counts anchors and completes the milestone whose anchorCount validator is reached', () => {
    const map = mapOf({}, '1. Find at least 3 competitors\n2. Write the comparison');
    const l = new Localizer(map);
    l.onStep(message('I found 2 competitors so far'));
    expect(l.position.completed).toEqual([]);
    const p = l.onStep(message('Now I found 3 competitors: A, B and C'));
    expect(p.completed).toEqual([map.milestones[0].id]);
    expect(p.method).toBe('validator');
    expect(l.anchorCounts[map.anchors[0].id]).toBe(3);
  });

  it('survives a snapshot round trip', () => {
    const l = new Localizer(linear, embedder);
    l.onStep(milestone('search'));
    const restored = Localizer.restore(linear, JSON.parse(JSON.stringify(l.snapshot())), embedder);
    expect(restored.position).toEqual(l.position);
    expect(restored.onStep(milestone('compare')).milestoneId).toBe('write');
  });

  it('without an embedder only signals and validators localize', () => {
    const l = new Localizer(linear);
    expect(l.onStep(message('write the final market report document')).method).toBe('unknown');
  });
});
