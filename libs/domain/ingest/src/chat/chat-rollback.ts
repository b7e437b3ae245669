/**
 * A rollback through the LLM proxy (issue #30, DESIGN §12): which messages of a request's conversation go,
 * by the SDK's rule (rollbackContext of @wayfinder/correction) over the seqs the proxy gave the
 * conversation's steps. A message joins with the seq of its last step (a tool result its observation, an
 * assistant message its last action); an assistant message that called tools joins with its results'
 * (the call and its results go together, so the conversation stays one the API accepts: no tool call
 * left without its result). Nothing goes when everything would (there would be no request left).
 */
import { rollbackContext, type RollbackCorrection } from '@wayfinder/correction';
import type { ChatMessage } from './chat-request';
import { stepCount } from './chat-steps';

export interface ChatRollback {
  /** Indices of the messages that go, ascending. */
  readonly removed: number[];
  /** How many of them were the model's turns. */
  readonly turns: number;
}

/** `seqBase`: the seq of the conversation's first step (the proxy's dense numbering). */
export function chatRollback(messages: readonly ChatMessage[], seqBase: number, correction: RollbackCorrection): ChatRollback {
  const seqs = joinSeqs(messages, seqBase);
  const { removed, turns } = rollbackContext(messages, correction.rollback.discardAfterSeq, { seqOf: (_, index) => seqs[index] });
  if (removed.length === messages.length) return { removed: [], turns: 0 };
  return { removed, turns };
}

/** Each message's seq for the rule: its last step's, a tool-calling message's raised to its results'. */
function joinSeqs(messages: readonly ChatMessage[], seqBase: number): Array<number | undefined> {
  const seqs: Array<number | undefined> = [];
  const callerOf = new Map<string, number>();
  let next = seqBase;
  messages.forEach((message, index) => {
    const count = stepCount(message);
    next += count;
    seqs.push(count > 0 ? next - 1 : undefined);
    for (const call of message.tool_calls ?? []) if (typeof call?.id === 'string') callerOf.set(call.id, index);
    const caller = message.role === 'tool' && typeof message.tool_call_id === 'string' ? callerOf.get(message.tool_call_id) : undefined;
    if (caller !== undefined && count > 0) seqs[caller] = Math.max(seqs[caller] ?? -Infinity, next - 1);
  });
  return seqs;
}
