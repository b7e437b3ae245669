/**
 * The task charter (DESIGN §5.5): the goal in one sentence and the hard constraints, numbered, with the
 * constraints users add through feedback appended under the next numbers. The charter opens every
 * assembled context and is never pruned, so constraints cannot be forgotten by compaction.
 */
import type { CognitiveMap } from '@wayfinder/contracts';

export type ConstraintSource = 'task' | 'goal' | 'feedback';

export interface CharterConstraint {
  /** 1-based and stable: a constraint keeps its number for the whole task. */
  n: number;
  text: string;
  source: ConstraintSource;
}

export interface Charter {
  goal: string;
  constraints: CharterConstraint[];
}

const MAX_GOAL_CHARS = 400;

/** The first sentence of a goal, whitespace collapsed (English and CJK sentence ends). */
export function oneSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)|[。！？]/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  return sentence.length <= MAX_GOAL_CHARS ? sentence : `${sentence.slice(0, MAX_GOAL_CHARS - 1)}…`;
}

function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function createCharter(goal: string, constraints: ReadonlyArray<{ text: string; source?: ConstraintSource }> = []): Charter {
  let charter: Charter = { goal: oneSentence(goal), constraints: [] };
  for (const c of constraints) charter = appendConstraint(charter, c.text, c.source ?? 'task');
  return charter;
}

/** The hard constraints of a cognitive map become the charter's first numbers, in map order. */
export function charterFromMap(map: Pick<CognitiveMap, 'goal' | 'constraints'>): Charter {
  return createCharter(
    map.goal,
    map.constraints.filter((c) => c.hard).map((c) => ({ text: c.text, source: c.source })),
  );
}

/** Adds a constraint under the next number; the same constraint given twice keeps its first number. */
export function appendConstraint(charter: Charter, text: string, source: ConstraintSource): Charter {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length === 0) return charter;
  if (charter.constraints.some((c) => normalized(c.text) === normalized(clean))) return charter;
  const n = charter.constraints.reduce((max, c) => Math.max(max, c.n), 0) + 1;
  return { ...charter, constraints: [...charter.constraints, { n, text: clean, source }] };
}

/** A user correction (a `feedback` step) becomes a numbered appended constraint. */
export function appendFeedback(charter: Charter, feedback: string): Charter {
  return appendConstraint(charter, feedback, 'feedback');
}

/**
 * The alignment self-check the charter asks the agent to write at each sub-task boundary. The detector
 * `align_check_failed` (@wayfinder/detection, goal-checks/align-check-block.ts) reads exactly this block:
 * "no" to the first two questions, or "yes" to the third, triggers a rollback.
 */
export const ALIGN_CHECK_TEMPLATE = [
  'At the end of each sub-task, write this self-check before going on:',
  '[ALIGN-CHECK]',
  '1. Still serving the goal? yes/no, and why',
  '2. Did the last steps advance the current sub-task? yes/no, and why',
  '3. Any hard constraint violated? no/yes, and which',
  '[/ALIGN-CHECK]',
].join('\n');

export function renderCharter(charter: Charter): string {
  const lines = ['CHARTER', `Goal: ${charter.goal}`];
  if (charter.constraints.length > 0) {
    lines.push('Constraints (never break these):');
    for (const c of charter.constraints) lines.push(`${c.n}. ${c.text}${c.source === 'feedback' ? ' (from user feedback)' : ''}`);
  }
  lines.push(ALIGN_CHECK_TEMPLATE);
  return lines.join('\n');
}
