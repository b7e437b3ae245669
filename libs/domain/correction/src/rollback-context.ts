/**
 * What a rollback does to an agent's context (DESIGN §5.4), one rule for every door that can edit it —
 * the SDK's applyCorrection and the LLM proxy (issue #30: the proxy used to forward the whole loop under a
 * note saying it was gone). A message belongs to the step it joined the context with: its own seq, else
 * the seq of the message before it. Messages before the first step (the system prompt, the task) belong
 * to none and stay; the others go when their step is past `discardAfterSeq`. Messages a door marks as its
 * own (Wayfinder's earlier hints and plans) stay too. The note says what went: how many turns (the
 * model's messages) and messages, back to which step and milestone; where nothing went, it asks the agent
 * to go back instead of saying its steps were removed.
 */
import type { Correction } from '@wayfinder/contracts';

export type RollbackCorrection = Extract<Correction, { action: 'rollback' }>;

export interface RolledBackContext<M> {
  readonly kept: M[];
  /** Index (in the input) of every message that went, in order. */
  readonly removed: number[];
  /** How many of those were the model's turns (`isTurn`). */
  readonly turns: number;
}

export interface RollbackContextOptions<M> {
  /** The seq a message joined with; undefined: the one before it's. */
  seqOf(message: M, index: number): number | undefined;
  /** A message the door put in itself: never removed. */
  isOwn?(message: M): boolean;
  /** A turn of the model (counted for the note; default: role `assistant`). */
  isTurn?(message: M): boolean;
}

export function rollbackContext<M>(messages: readonly M[], discardAfterSeq: number, options: RollbackContextOptions<M>): RolledBackContext<M> {
  const isTurn = options.isTurn ?? ((m: M) => (m as { role?: unknown }).role === 'assistant');
  const kept: M[] = [];
  const removed: number[] = [];
  let turns = 0;
  let current: number | undefined;
  messages.forEach((message, index) => {
    current = options.seqOf(message, index) ?? current;
    if (options.isOwn?.(message) || current === undefined || current <= discardAfterSeq) {
      kept.push(message);
      return;
    }
    removed.push(index);
    if (isTurn(message)) turns++;
  });
  return { kept, removed, turns };
}

/** What the agent reads in place of the removed messages: what went, back to where, and why. */
export function rollbackNote(correction: RollbackCorrection, removed: { turns: number; messages: number }): string {
  const { milestoneId, discardAfterSeq } = correction.rollback;
  const back = discardAfterSeq < 0 ? 'the start' : `step ${discardAfterSeq}${milestoneId ? ` (milestone ${milestoneId})` : ''}`;
  // Nothing removed (a door that cannot edit the context, e.g. hooks): an instruction, not a claim that they went.
  if (removed.messages === 0) return `Go back to ${back}: ${correction.reason}. Treat your steps after it as undone and continue from there.`;
  const turns = `${removed.turns} ${removed.turns === 1 ? 'turn' : 'turns'}`;
  const messages = `${removed.messages} ${removed.messages === 1 ? 'message' : 'messages'}`;
  return `Wayfinder rolled back your last ${turns} (${messages}), back to ${back}: ${correction.reason}. They are no longer in this conversation; continue from there and do not repeat them.`;
}
