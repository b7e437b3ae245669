/**
 * Property tests of context assembly over random charters, operation logs, memories and budgets: the
 * charter with every constraint opens the context whatever the budget, user feedback is never pruned,
 * and the result stays within the budget whenever what may never be pruned fits in it.
 */
import fc from 'fast-check';
import { appendFeedback, createCharter, renderCharter, type Charter, type ConstraintSource } from './charter';
import { assembleContext, type ContextInput, type ContextOptions, type OperationLogEntry, type RelevantMemory } from './context-assembly';
import { MEMORY_KINDS } from './vector-store.port';

const WORDS = ['pricing', 'competitor', 'report', 'must not', 'never', '5', 'sources', '竞争对手', '不得', '报告', '数据', '{"q":1}', '\n', '  ', '。', 'x'];

const text = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.array(fc.constantFrom(...WORDS), { maxLength: Math.max(1, Math.floor(maxLength / 4)) }).map((w) => w.join(' ')),
    // Long raw tool output, the thing pruning exists for.
    fc.tuple(fc.constantFrom('row,', '数据', 'ab '), fc.integer({ min: 100, max: 2_000 })).map(([s, n]) => s.repeat(n)),
  );

/** Non-blank, or appendConstraint ignores it and there is nothing to look for. */
const constraintText = text(120).filter((t) => t.trim().length > 0);

const MILESTONES = ['m1', 'm2', 'm3'] as const;
const milestoneId = fc.constantFrom<string | null>(...MILESTONES, null);
const KINDS = ['action', 'observation', 'message', 'feedback', 'milestone', 'compaction', 'plan'] as const;

const logEntries = fc
  .array(
    fc.record(
      { milestoneId, kind: fc.constantFrom(...KINDS), text: text(600), conclusion: text(200) },
      { requiredKeys: ['milestoneId', 'kind', 'text'] },
    ),
    { maxLength: 40 },
  )
  // seq increases along the log, as the agent's steps do (with gaps: not every step is logged).
  .chain((entries) => fc.array(fc.integer({ min: 1, max: 5 }), { minLength: entries.length, maxLength: entries.length }).map((gaps) => ({ entries, gaps })))
  .map(({ entries, gaps }) => {
    let seq = 0;
    return entries.map((e, i): OperationLogEntry => {
      seq += gaps[i];
      return { ...e, seq };
    });
  });

const memory: fc.Arbitrary<RelevantMemory> = fc.record(
  {
    id: fc.string({ minLength: 1, maxLength: 12 }),
    kind: fc.constantFrom(...MEMORY_KINDS),
    text: text(300),
    milestoneId: fc.constantFrom(...MILESTONES),
    score: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: ['id', 'kind', 'text', 'score'] },
);

const options: fc.Arbitrary<Partial<ContextOptions>> = fc.record(
  {
    heavyPruningAt: fc.double({ min: 0.6, max: 0.7, noNaN: true }),
    maxMemories: fc.integer({ min: 0, max: 8 }),
    heavyMaxMemories: fc.integer({ min: 0, max: 3 }),
    rawEntryTokens: fc.integer({ min: 1, max: 400 }),
    heavyRawEntryTokens: fc.integer({ min: 1, max: 80 }),
    heavyRecentRaw: fc.integer({ min: 0, max: 5 }),
  },
  { requiredKeys: [] },
);

const budget = fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 200, max: 5_000 }), fc.integer({ min: 5_000, max: 200_000 }));

/** A charter as the memory service keeps it: the map's hard constraints, then user feedback appended. */
const charterOf = (goal: string, hard: Array<{ text: string; source: ConstraintSource }>, log: OperationLogEntry[], extraFeedback: string[]): Charter =>
  [...log.filter((e) => e.kind === 'feedback').map((e) => e.text), ...extraFeedback].reduce(appendFeedback, createCharter(goal, hard));

const contextInput: fc.Arbitrary<ContextInput> = fc
  .record({
    goal: text(300),
    hard: fc.array(fc.record({ text: constraintText, source: fc.constantFrom<ConstraintSource>('task', 'goal') }), { maxLength: 6 }),
    extraFeedback: fc.array(constraintText, { maxLength: 3 }),
    state: fc.option(text(800), { nil: undefined }),
    goalBoard: fc.option(text(200), { nil: undefined }),
    currentMilestoneId: milestoneId,
    memories: fc.array(memory, { maxLength: 10 }),
    log: logEntries,
    budgetTokens: budget,
    options: fc.option(options, { nil: undefined }),
  })
  .map(({ goal, hard, extraFeedback, log, ...rest }) => ({ ...rest, log, charter: charterOf(goal, hard, log, extraFeedback) }));

/** What assembly may never prune: the charter, STATE, the goal board and the user-feedback lines. */
function neverPruned(input: ContextInput) {
  return assembleContext({ ...input, memories: [], log: (input.log ?? []).filter((e) => e.kind === 'feedback'), budgetTokens: Number.MAX_SAFE_INTEGER });
}

const feedbackLine = (e: OperationLogEntry) => `#${e.seq} user feedback: ${e.text}`;

describe('context assembly properties', () => {
  it('opens with the charter and every constraint, hard and appended, whatever the budget', () => {
    fc.assert(
      fc.property(contextInput, (input) => {
        const ctx = assembleContext(input);
        expect(ctx.sections[0].name).toBe('charter');
        expect(ctx.text.startsWith(renderCharter(input.charter))).toBe(true);
        const charterSection = ctx.sections[0].text;
        for (const c of input.charter.constraints) expect(charterSection).toContain(`${c.n}. ${c.text}`);
        // Numbers are given in order and never reused, so "constraint 3" means one thing for the whole task.
        expect(input.charter.constraints.map((c) => c.n)).toEqual(input.charter.constraints.map((_, i) => i + 1));
        const order = ['charter', 'state', 'goal_board', 'memories', 'log'];
        const positions = ctx.sections.map((s) => order.indexOf(s.name));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });

  it('never drops a user-feedback line of the log', () => {
    fc.assert(
      fc.property(contextInput, (input) => {
        const ctx = assembleContext(input);
        const log = ctx.sections.find((s) => s.name === 'log')?.text ?? '';
        for (const e of input.log ?? []) if (e.kind === 'feedback') expect(log).toContain(feedbackLine(e));
        const feedback = (input.log ?? []).filter((e) => e.kind === 'feedback').length;
        expect(ctx.dropped.logEntries).toBeLessThanOrEqual((input.log ?? []).length - feedback);
      }),
      { numRuns: 200 },
    );
  });

  it('stays within the budget whenever what may never be pruned fits, and reports the overflow otherwise', () => {
    fc.assert(
      fc.property(contextInput, (input) => {
        const ctx = assembleContext(input);
        const floor = neverPruned(input).tokens;
        const threshold = Math.floor((input.options?.heavyPruningAt ?? 0.65) * input.budgetTokens);
        if (floor <= input.budgetTokens) {
          expect(ctx.overBudget).toBe(false);
          expect(ctx.tokens).toBeLessThanOrEqual(input.budgetTokens);
        } else {
          // Over budget only because of what may never go: everything prunable went first.
          expect(ctx.overBudget).toBe(true);
          expect(ctx.pruning).toBe('heavy');
          expect(ctx.tokens).toBe(floor);
        }
        // Heavy pruning brings the context back under its threshold when the floor allows it.
        if (floor < threshold) expect(ctx.tokens).toBeLessThan(threshold);
        // Nothing that may never be pruned is ever missing, so the context is never smaller than that floor.
        expect(ctx.tokens).toBeGreaterThanOrEqual(floor);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the charter, STATE and goal board as given, never pruned', () => {
    fc.assert(
      fc.property(contextInput, (input) => {
        const ctx = assembleContext(input);
        const sectionText = (name: string) => ctx.sections.find((s) => s.name === name)?.text;
        expect(sectionText('charter')).toBe(renderCharter(input.charter));
        if (input.state !== undefined && input.state.trim().length > 0) expect(sectionText('state')).toBe(input.state);
        if (input.goalBoard !== undefined && input.goalBoard.trim().length > 0) expect(sectionText('goal_board')).toBe(input.goalBoard);
      }),
      { numRuns: 200 },
    );
  });
});
