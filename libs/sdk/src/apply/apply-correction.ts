/**
 * Applying a correction to a chat-message agent's context (DESIGN §5.4):
 * - hint: a system message at the front, after the agent's own leading system prompt (an earlier hint
 *   from Wayfinder is replaced, not stacked);
 * - rollback: the messages after the checkpoint go (`discardAfterSeq`, mapped by MessageSeqs; the rule of
 *   rollbackContext in @wayfinder/correction, which the LLM proxy applies too) and a note in the hint's
 *   place says what went and why;
 * - replan: the plan message is replaced by the new path;
 * - freeze: AgentFrozenError, for the agent to catch and stop.
 */
import type { Correction } from '@wayfinder/contracts';
import { resumeInstructions, rollbackContext, rollbackNote } from '@wayfinder/correction';

/** The shape of OpenAI/Anthropic/LangChain-style chat messages: a role and content. */
export interface ChatMessage {
  role?: string;
  content?: unknown;
}

/** Thrown by applyCorrection for a freeze: the agent stops and a human decides (`POST …/resume`). */
export class AgentFrozenError extends Error {
  readonly escalationId: string;
  constructor(readonly correction: Extract<Correction, { action: 'freeze' }>) {
    super(`wayfinder froze agent ${correction.agentId}: ${correction.freeze.reason} (escalation ${correction.freeze.escalationId}). ${resumeInstructions(correction.agentId)}`);
    this.name = 'AgentFrozenError';
    this.escalationId = correction.freeze.escalationId;
  }
}

/**
 * Which step each message came with. A message's seq is the seq of the latest step the agent had
 * published when the message joined the context: record it as you append (`seqs.record(message,
 * client.lastSeq)`). A message recorded with no seq inherits the one before it; messages before the first
 * recorded one (system prompt, the user's task) belong to no step and are never rolled back.
 */
export class MessageSeqs {
  private readonly seqs = new WeakMap<object, number>();

  record<M extends object>(message: M, seq: number): M {
    this.seqs.set(message, seq);
    return message;
  }

  seqOf(message: object): number | undefined {
    return this.seqs.get(message);
  }
}

export interface ApplyOptions<M extends object> {
  /** Needed for rollbacks. */
  seqs?: MessageSeqs;
  /** Builds a system message in the agent's format (default `{role: 'system', content: text}`). */
  systemMessage?: (text: string) => M;
  /** Whether a message is a system message (default `role === 'system'`; LangChain: `m.getType() === 'system'`). */
  isSystem?: (message: M) => boolean;
  /** Finds the plan message a replan replaces (default: the one a previous replan put in). */
  isPlan?: (message: M) => boolean;
  /** Describes a milestone id for the new plan (default: the id). */
  describeMilestone?: (milestoneId: string) => string;
}

const WAYFINDER_HINTS = new WeakSet<object>();
const WAYFINDER_PLANS = new WeakSet<object>();

/** Returns the new message list; the input is not modified. Throws AgentFrozenError on a freeze. */
export function applyCorrection<M extends object>(messages: readonly M[], correction: Correction, options: ApplyOptions<M> = {}): M[] {
  const system = options.systemMessage ?? ((text: string) => ({ role: 'system', content: text }) as unknown as M);
  const isSystem = options.isSystem ?? ((m: M) => (m as ChatMessage).role === 'system');
  const leadingSystemCount = (list: readonly M[]) => {
    let at = 0;
    while (at < list.length && isSystem(list[at]) && !WAYFINDER_HINTS.has(list[at])) at++;
    return at;
  };
  switch (correction.action) {
    case 'hint': {
      const hint = system(correction.hint.text);
      WAYFINDER_HINTS.add(hint);
      const kept = messages.filter((m) => !WAYFINDER_HINTS.has(m));
      const at = leadingSystemCount(kept);
      return [...kept.slice(0, at), hint, ...kept.slice(at)];
    }
    case 'rollback': {
      if (!options.seqs) throw new Error('applyCorrection: a rollback needs options.seqs (the seq of each message)');
      // The agent would redo what it no longer sees: a note at the front says why the steps went.
      const seqs = options.seqs;
      const rolledBack = rollbackContext(messages, correction.rollback.discardAfterSeq, {
        seqOf: (m) => seqs.seqOf(m),
        isOwn: (m) => WAYFINDER_HINTS.has(m) || WAYFINDER_PLANS.has(m),
        isTurn: (m) => (m as ChatMessage).role === 'assistant' || (m as { getType?: () => string }).getType?.() === 'ai',
      });
      const kept = rolledBack.kept.filter((m) => !WAYFINDER_HINTS.has(m));
      const note = system(rollbackNote(correction, { turns: rolledBack.turns, messages: rolledBack.removed.length }));
      WAYFINDER_HINTS.add(note);
      const at = leadingSystemCount(kept);
      return [...kept.slice(0, at), note, ...kept.slice(at)];
    }
    case 'replan': {
      const describe = options.describeMilestone ?? ((id: string) => id);
      const { remaining, fromMilestoneId, reason } = correction.replan;
      const lines = remaining.map((id, i) => `${i + 1}. ${describe(id)}`);
      const text = `Revised plan${fromMilestoneId ? ` (from milestone ${describe(fromMilestoneId)})` : ''}: ${reason}\n${lines.join('\n')}`;
      const plan = system(text);
      WAYFINDER_PLANS.add(plan);
      const isPlan = (m: M) => WAYFINDER_PLANS.has(m) || (options.isPlan?.(m) ?? false);
      const index = messages.findIndex(isPlan);
      if (index >= 0) return [...messages.slice(0, index), plan, ...messages.slice(index + 1).filter((m) => !isPlan(m))];
      const at = leadingSystemCount(messages);
      return [...messages.slice(0, at), plan, ...messages.slice(at)];
    }
    case 'freeze':
      throw new AgentFrozenError(correction);
  }
}
