/**
 * Which messages of a chat request are new for its agent (the LLM proxy, DESIGN §12). Every request
 * carries the whole conversation; the tracker remembers, per agent, how far the last request went (a
 * running fingerprint of those messages) and where the proxy's own answer sits, so only the messages
 * after them become steps. A request whose opening messages differ from what was remembered is a
 * rewritten conversation (compacted, edited): it becomes a compaction step, and the steps after it carry
 * on above the last seq, from the messages after its last assistant message.
 *
 * Memory is bounded in per-tenant shares (keys are `<tenantId>\u0000…`): past `maxAgentsPerTenant` a
 * tenant's own least recently used are forgotten, past `maxAgents` those of the tenant holding the most. A forgotten agent, a restarted gateway
 * or another instance simply treats the whole history as new: the steps repeat with the same seq and
 * eventId, which downstream recognises as duplicates.
 */
import { canonicalJson, hash32 } from '@wayfinder/detection';
import { TenantShares, tenantOfKey } from '@wayfinder/tenancy';
import { stepsBefore } from './chat-steps';
import type { ChatMessage } from './chat-request';

interface Conversation {
  runId: string;
  /** Messages fingerprinted (the last request's length). */
  count: number;
  /** Two 32-bit running hashes of those messages. */
  h1: number;
  h2: number;
  /** Index of the proxy's answer to that request (count), when it was made steps of. */
  answered?: number;
  seqBase: number;
  /** The highest seq given out in this run. */
  lastSeq: number;
}

export interface Admission {
  /** First index whose message is new. */
  from: number;
  seqBase: number;
  /** The assistant message at this index was made steps of from the response. */
  answered?: number;
  /** Set when the conversation was rewritten: the seq of the compaction step to publish. */
  rewrittenAt?: number;
  /** Messages remembered before, for the compaction's reason. */
  before: number;
  /** The running fingerprint of all of this request's messages (for commit). */
  readonly h1: number;
  readonly h2: number;
}

const SEED_1 = 0x811c9dc5;
const SEED_2 = 0x01000193;

export class ConversationTracker {
  private readonly conversations: TenantShares<Conversation>;

  constructor(maxAgents = 50_000, maxAgentsPerTenant = 10_000) {
    this.conversations = new TenantShares({ total: maxAgents, perTenant: Math.min(maxAgents, maxAgentsPerTenant) });
  }

  get size(): number {
    return this.conversations.size;
  }

  /** Decides which messages are new; `commit` records the request once its steps are out. */
  admit(agentKey: string, runId: string, messages: readonly ChatMessage[]): Admission {
    const known = this.conversations.get(tenantOfKey(agentKey), agentKey);
    // One pass over the messages: the fingerprint where the last request ended, and at the end.
    let h1 = SEED_1;
    let h2 = SEED_2;
    let matches = false;
    const at = known && known.runId === runId ? known.count : -1;
    for (let i = 0; i < messages.length; i++) {
      if (i === at) matches = h1 === known!.h1 && h2 === known!.h2;
      [h1, h2] = chain(h1, h2, messages[i]);
    }
    if (at === messages.length) matches = h1 === known!.h1 && h2 === known!.h2;
    const hashes = { h1, h2 };
    if (!known || known.runId !== runId) return { from: 0, seqBase: 0, before: 0, ...hashes };
    if (matches) {
      const answered = known.answered !== undefined && known.answered === known.count && messages[known.count]?.role === 'assistant' ? known.answered : undefined;
      return { from: known.count + (answered !== undefined ? 1 : 0), seqBase: known.seqBase, ...(answered !== undefined && { answered }), before: known.count, ...hashes };
    }
    // Rewritten: what follows the last assistant message is the agent's newest input.
    let lastAssistant = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].role === 'assistant') {
        lastAssistant = i;
        break;
      }
    }
    const from = lastAssistant + 1;
    const rewrittenAt = known.lastSeq + 1;
    return { from, seqBase: rewrittenAt + 1 - stepsBefore(messages, from), rewrittenAt, before: known.count, ...hashes };
  }

  /** Records the request's messages as seen; `lastSeq` is the highest seq its steps used (if any). */
  commit(agentKey: string, runId: string, messages: readonly ChatMessage[], admission: Admission, lastSeq?: number): void {
    const known = this.conversations.get(tenantOfKey(agentKey), agentKey);
    const previous = known && known.runId === runId ? known.lastSeq : -1;
    this.conversations.set(tenantOfKey(agentKey), agentKey, { runId, count: messages.length, h1: admission.h1, h2: admission.h2, seqBase: admission.seqBase, lastSeq: Math.max(previous, lastSeq ?? -1, admission.rewrittenAt ?? -1) });
  }

  /** Forgets the agent's conversation: its next request is all new (its steps repeat with the same seqs). */
  forget(agentKey: string): void {
    this.conversations.delete(tenantOfKey(agentKey), agentKey);
  }

  /** The proxy made steps of its answer to the last committed request; `lastSeq` the highest they used. */
  answered(agentKey: string, runId: string, lastSeq: number): void {
    const known = this.conversations.get(tenantOfKey(agentKey), agentKey);
    if (!known || known.runId !== runId) return;
    known.answered = known.count;
    known.lastSeq = Math.max(known.lastSeq, lastSeq);
  }
}

function chain(h1: number, h2: number, message: ChatMessage): [number, number] {
  const text = canonicalJson(message);
  return [hash32(text, h1), hash32(text, h2 ^ 0x5bd1e995)];
}
