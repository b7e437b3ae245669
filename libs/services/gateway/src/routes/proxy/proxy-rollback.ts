/**
 * Rollbacks through the LLM proxy (issue #30, DESIGN §12): a pending rollback removes the conversation's
 * messages after the checkpoint from what goes upstream (chatRollback of @wayfinder/ingest, the SDK's rule)
 * and the note says what went. The agent still holds those messages and sends them again with every
 * request, so the proxy remembers, per agent and run, which ones it removed and keeps them out of the
 * requests that follow (while the conversation still extends the one rolled back). Memory is bounded in
 * per-tenant shares: a forgotten agent's later requests carry the loop again, as before the rollback.
 */
import { rollbackNote } from '@wayfinder/correction';
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
  /** The conversation's length when they were: a shorter one was rewritten and no longer holds them. */
  readonly length: number;
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
    if (removal && (removal.runId !== turn.runId || messages.length < removal.length)) {
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
      if (fresh.length > 0) this.removals.set(turn.tenantId, turn.agentKey, { runId: turn.runId, removed: [...removed].sort((a, b) => a - b), length: messages.length });
    }
    const forwarded = removed.size > 0 && removed.size < messages.length && request.without ? request.without(removed) : request;
    return text === undefined ? forwarded.body : forwarded.withGuidance(text);
  }
}
