/**
 * Rollbacks through the LLM proxy (issue #30, DESIGN §12): a pending rollback removes the conversation's
 * messages after the checkpoint from what goes upstream (chatRollback of @wayfinder/ingest, the SDK's rule)
 * and the note says what went. The agent still holds those messages and sends them again with every
 * request, so the proxy remembers, per agent and run, which ones it removed and keeps them out of the
 * requests that follow (while the conversation still begins with the one rolled back: same messages up to
 * its length, checked by fingerprint, so a compacted or edited conversation loses nothing). Memory is bounded in
 * per-tenant shares: a forgotten agent's later requests carry the loop again, as before the rollback.
 */
import { rollbackNote } from '@wayfinder/correction';
import { canonicalJson, hash32 } from '@wayfinder/detection';
import { chatRollback, guidanceText, stepsBefore, type ChatMessage, type Guidance } from '@wayfinder/ingest';
import { TenantShares } from '@wayfinder/tenancy';

/** What a dialect forwards: its body, and its body with guidance added. */
export interface Forwardable {
  readonly body: unknown;
  withGuidance(text: string): unknown;
}

/** A dialect request that can leave messages of its conversation out (indices in the chat conversation). */
export interface RollbackableRequest extends Forwardable {
  readonly messages: readonly ChatMessage[];
  without?(removed: ReadonlySet<number>): Forwardable;
}

interface Removal {
  readonly runId: string;
  /** Conversation messages left out, ascending. */
  readonly removed: readonly number[];
  /** The conversation's length when they were, and the fingerprint of those messages: a conversation that does not begin with them was rewritten. */
  readonly length: number;
  readonly fingerprint: string;
}

function fingerprintOf(messages: readonly ChatMessage[], length: number): string {
  const text = canonicalJson(messages.slice(0, length));
  return `${hash32(text)}:${hash32(text, 0x01000193)}`;
}

export interface RollbackTurn {
  readonly tenantId: string;
  readonly agentKey: string;
  readonly runId: string;
  /** The seq the request's answer takes (the conversation's steps end just before it). */
  readonly answerSeq: number;
}

export class ProxyRollbacks {
  private readonly removals = new TenantShares<Removal>({ perTenant: 10_000, total: 50_000 });

  /** The body to send upstream: without the rolled-back messages, with the pending guidance's text (a rollback's note saying what went). */
  body(turn: RollbackTurn, request: RollbackableRequest, guidance: Guidance | undefined): unknown {
    const { messages } = request;
    let removal = this.removals.get(turn.tenantId, turn.agentKey);
    if (removal && (removal.runId !== turn.runId || messages.length < removal.length || fingerprintOf(messages, removal.length) !== removal.fingerprint)) {
      this.removals.delete(turn.tenantId, turn.agentKey);
      removal = undefined;
    }
    const removed = new Set(removal?.removed ?? []);
    let text = guidance && guidance.action !== 'rollback' ? guidanceText(guidance) : undefined;
    if (guidance?.action === 'rollback') {
      const seqBase = turn.answerSeq - stepsBefore(messages, messages.length);
      const fresh = request.without ? chatRollback(messages, seqBase, guidance).removed.filter((i) => !removed.has(i)) : [];
      for (const index of fresh) removed.add(index);
      text = rollbackNote(guidance, { turns: fresh.filter((i) => messages[i].role === 'assistant').length, messages: fresh.length });
      if (fresh.length > 0) this.removals.set(turn.tenantId, turn.agentKey, { runId: turn.runId, removed: [...removed].sort((a, b) => a - b), length: messages.length, fingerprint: fingerprintOf(messages, messages.length) });
    }
    const forwarded = removed.size > 0 && removed.size < messages.length && request.without ? request.without(removed) : request;
    return text === undefined ? forwarded.body : forwarded.withGuidance(text);
  }
}
