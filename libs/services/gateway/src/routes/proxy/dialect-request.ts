/**
 * What the proxy reads of an agent's request in any dialect (Anthropic Messages, OpenAI Responses): the
 * conversation in the chat shape the tracker knows, whether the answer streams, the agent the body names,
 * and the body as sent (forwarded with only the dialect's instructions changed).
 */
import type { ChatMessage } from '@wayfinder/ingest';

export interface DialectRead {
  /** The conversation as the proxy tracks it (system first). */
  messages: ChatMessage[];
  stream: boolean;
  /** The agent when no X-Wayfinder-Agent names it. */
  user?: string;
  body: Record<string, unknown>;
}

/** The request as read, or the field the reading stopped at. */
export type DialectReadResult = { ok: true; value: DialectRead } | { ok: false; error: string; field: string };

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
