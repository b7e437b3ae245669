/** Budget: steps, tokens and cost warn at warningRatio and go critical at 100%, once each. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('budget', () => {
  it('warns at 80% of the steps and is critical at 100% (task maxSteps)', () => {
    const engine = engineFor({}, { maxSteps: 10 });
    const s = steps();
    const events = [];
    for (let i = 0; i < 12; i++) events.push(s.act('step', { n: i }), s.ok('step', `done ${'x'.repeat(i)} ${i}`));
    const budget = runAll(engine, events).filter((d) => d.detector === 'budget');
    expect(budget.map((d) => [d.level, d.atSeq])).toEqual([
      ['warning', 14],
      ['critical', 18],
    ]);
    expect(budget[1].evidence).toMatchObject({ metric: 'steps', used: 10, limit: 10 });
  });

  it('adds up tokens and cost from usage', () => {
    const engine = engineFor({ budget: { maxTokens: 1000, maxCostUsd: 1 } });
    const s = steps();
    const out = runAll(engine, [
      s.withUsage(s.say('plan'), { inputTokens: 500, outputTokens: 300, costUsd: 0.5 }),
      s.withUsage(s.say('more'), { inputTokens: 200, outputTokens: 100, costUsd: 0.6 }),
    ]).filter((d) => d.detector === 'budget');
    expect(out.map((d) => [d.evidence.metric, d.level])).toEqual([
      ['tokens', 'warning'],
      ['tokens', 'critical'],
      ['costUsd', 'critical'],
    ]);
    expect(new Set(out.map((d) => d.eventId)).size).toBe(out.length);
  });
});
