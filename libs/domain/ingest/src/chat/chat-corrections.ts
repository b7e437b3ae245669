/**
 * Corrections as the LLM proxy and the agent hooks deliver them (DESIGN §5.4, §12):
 * - which of an agent's logged corrections is pending: the agent is frozen by its newest freeze while no
 *   correction came after it and nobody resumed it (a resume acknowledges the freeze); the pending
 *   guidance is the newest hint, rollback or replan not yet acknowledged (older ones are superseded);
 * - the text a hint, rollback or replan becomes (the SDK's wording);
 * - where it goes: a system message at the front of the messages, after the agent's own system prompt;
 * - what a frozen agent's request gets: an OpenAI-style error body saying why.
 */
import type { Correction } from '@wayfinder/contracts';
import { resumeInstructions, rollbackNote } from '@wayfinder/correction';
import type { ChatMessage } from './chat-request';

export type FreezeCorrection = Extract<Correction, { action: 'freeze' }>;
export type Guidance = Exclude<Correction, FreezeCorrection>;

export interface CorrectionSeen {
  correction: Correction;
  /** The recorded acknowledgement, if any. */
  acked: boolean;
}

export interface PendingCorrections {
  frozen?: FreezeCorrection;
  guidance?: Guidance;
}

/** `seen`: the agent's corrections, oldest first. */
export function pendingCorrections(seen: readonly CorrectionSeen[]): PendingCorrections {
  const last = seen.at(-1);
  const frozen = last && last.correction.action === 'freeze' && !last.acked ? (last.correction as FreezeCorrection) : undefined;
  // Only the newest correction counts: an older hint was superseded (applied or not), and guidance from
  // before a freeze was overtaken by it.
  const guidance = last && last.correction.action !== 'freeze' && !last.acked ? (last.correction as Guidance) : undefined;
  return { ...(frozen && { frozen }), ...(guidance && { guidance }) };
}

/** What the agent reads for a correction (the SDK's applyCorrection wording). */
export function guidanceText(correction: Guidance): string {
  switch (correction.action) {
    case 'hint':
      return correction.hint.text;
    case 'rollback':
      // Nothing removed here: a door that removes the messages (the proxy) says how many with rollbackNote.
      return rollbackNote(correction, { turns: 0, messages: 0 });
    case 'replan': {
      const { remaining, fromMilestoneId, reason } = correction.replan;
      const lines = remaining.map((id, i) => `${i + 1}. ${id}`);
      return `Revised plan${fromMilestoneId ? ` (from milestone ${fromMilestoneId})` : ''}: ${reason}${lines.length > 0 ? `\n${lines.join('\n')}` : ''}`;
    }
  }
}

/** The messages with a system message of `text` after the leading system (or developer) messages. */
export function withGuidance(messages: readonly ChatMessage[], text: string): ChatMessage[] {
  let at = 0;
  while (at < messages.length && (messages[at].role === 'system' || messages[at].role === 'developer')) at++;
  return [...messages.slice(0, at), { role: 'system', content: text }, ...messages.slice(at)];
}

/** 423 Locked: the agent is frozen until a human resumes it (not retried by OpenAI clients). */
export const FROZEN_STATUS = 423;

export interface ChatErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function frozenMessage(correction: FreezeCorrection): string {
  return `Wayfinder froze agent ${correction.agentId}: ${correction.freeze.reason} (escalation ${correction.freeze.escalationId}). ${resumeInstructions(correction.agentId)}`;
}

export function frozenError(correction: FreezeCorrection): ChatErrorBody {
  return { error: { message: frozenMessage(correction), type: 'agent_frozen', param: null, code: 'agent_frozen' } };
}

/** The OpenAI error shape for the proxy's own errors (bad request, no upstream, upstream unreachable…). */
export function chatError(message: string, type: string, param?: string, code?: string): ChatErrorBody {
  return { error: { message, type, param: param ?? null, code: code ?? null } };
}
