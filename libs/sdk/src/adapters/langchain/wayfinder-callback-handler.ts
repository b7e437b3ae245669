/**
 * LangChain.js adapter: a callback handler that turns a run's tool calls and results into steps (tool
 * start → action, tool end/error → observation, model output text → message), and applies the
 * corrections that came back to the messages of the next model call (`applyCorrections`). Needs the
 * optional peer @langchain/core (1.x). Tools run outside the handler's callbacks leave nothing to record:
 * when a model turn asked for tools and no tool callback followed before the next turn, it warns once.
 */
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import { SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import type { JsonValue } from '@wayfinder/contracts';
import { MessageSeqs } from '../../apply/apply-correction';
import type { WayfinderClient } from '../../wayfinder-client';
import { PendingCorrections } from '../pending-corrections';

export interface WayfinderCallbackHandlerOptions {
  /** Where the one warning about unwired tools goes (default console.warn). */
  warn?: (message: string) => void;
}

export class WayfinderCallbackHandler extends BaseCallbackHandler {
  name = 'wayfinder';
  /** The seq each message of the agent's history came with, for rollbacks (see `record`). */
  readonly seqs = new MessageSeqs();
  private readonly pending: PendingCorrections;
  /** Tool runs in flight: LangChain run id → tool name. */
  private readonly tools = new Map<string, string>();
  /** Tools the last model turn asked for, until a tool callback shows they run through this handler. */
  private requested: string[] = [];
  private warned = false;
  private readonly warn: (message: string) => void;

  constructor(
    readonly client: WayfinderClient,
    options: WayfinderCallbackHandlerOptions = {},
  ) {
    super({ _awaitHandler: true, raiseError: true });
    this.pending = new PendingCorrections(client);
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  /** Corrections applied so far. */
  get applied() {
    return this.pending.applied;
  }

  override async handleToolStart(tool: Serialized, input: string, runId: string, _parent?: string, _tags?: string[], _meta?: Record<string, unknown>, runName?: string): Promise<void> {
    const name = runName ?? (tool as { name?: string }).name ?? tool.id.at(-1) ?? 'tool';
    this.requested = [];
    this.tools.set(runId, name);
    await this.client.action(name, argsOf(input), { callId: runId });
  }

  override async handleToolEnd(output: unknown, runId: string): Promise<void> {
    const tool = this.tools.get(runId) ?? 'tool';
    this.tools.delete(runId);
    await this.client.observation(tool, { callId: runId, content: contentOf(output) });
  }

  override async handleToolError(error: Error, runId: string): Promise<void> {
    const tool = this.tools.get(runId) ?? 'tool';
    this.tools.delete(runId);
    await this.client.observation(tool, { callId: runId, error: error.message });
  }

  override async handleLLMStart(): Promise<void> {
    this.checkToolWiring();
  }

  override async handleChatModelStart(): Promise<void> {
    this.checkToolWiring();
  }

  override async handleLLMEnd(output: LLMResult): Promise<void> {
    const text = output.generations[0]?.[0]?.text;
    this.checkToolWiring();
    this.requested = toolCallsOf(output);
    if (text) await this.client.message(text, 'assistant');
  }

  /** Records a message as it joins the history, with the seq of the latest step (for rollbacks). */
  record<M extends BaseMessage>(message: M): M {
    return this.seqs.record(message, this.client.lastSeq);
  }

  /**
   * Call before each model call: applies the corrections that arrived (a hint as a SystemMessage after
   * the system prompt, rollback, replan) and acks them; throws AgentFrozenError on a freeze.
   */
  applyCorrections(messages: readonly BaseMessage[]): Promise<BaseMessage[]> {
    this.checkToolWiring();
    return this.pending.applyTo(messages, {
      seqs: this.seqs,
      systemMessage: (text) => new SystemMessage(text),
      isSystem: (m) => m.getType() === 'system',
    });
  }

  close(): Promise<void> {
    this.checkToolWiring();
    return this.pending.close();
  }

  /** A model turn asked for tools and none of their runs came through this handler: the loop is invisible. */
  private checkToolWiring(): void {
    if (this.requested.length === 0 || this.warned) return;
    this.warned = true;
    const names = [...new Set(this.requested)].join(', ');
    this.requested = [];
    this.warn(
      `wayfinder: the model asked for tools (${names}) but no tool run reached the WayfinderCallbackHandler, so Wayfinder ` +
        `records no actions or observations and cannot see a tool loop. Pass the handler to the tools too: ` +
        `tool.invoke(call, { callbacks: [handler] }), or to the agent or graph that runs them: agent.invoke(input, { callbacks: [handler] }).`,
    );
  }
}

/** The names of the tool calls a model turn asked for (LangChain's tool_calls, or OpenAI's in additional_kwargs). */
function toolCallsOf(output: LLMResult): string[] {
  const names: string[] = [];
  for (const generation of output.generations.flat()) {
    const message = (generation as { message?: { tool_calls?: Array<{ name?: string }>; additional_kwargs?: { tool_calls?: Array<{ function?: { name?: string } }> } } }).message;
    const calls = message?.tool_calls?.length ? message.tool_calls.map((c) => c.name) : (message?.additional_kwargs?.tool_calls ?? []).map((c) => c.function?.name);
    for (const name of calls) names.push(name ?? 'tool');
  }
  return names;
}

function argsOf(input: string): Record<string, JsonValue> {
  try {
    const parsed = JSON.parse(input) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, JsonValue>;
  } catch {
    // plain string input
  }
  return { input };
}

/** A ToolMessage's content, or the output itself when it is plain. */
function contentOf(output: unknown): JsonValue {
  const content = typeof output === 'object' && output !== null && 'content' in output ? (output as { content: unknown }).content : output;
  if (typeof content === 'string') return content;
  try {
    return JSON.parse(JSON.stringify(content ?? null)) as JsonValue;
  } catch {
    return String(content);
  }
}
