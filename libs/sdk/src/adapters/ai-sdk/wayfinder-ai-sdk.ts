/**
 * Vercel AI SDK (`ai` 6) integration: spread `wayfinder.settings()` into `generateText` / `streamText`.
 * `onStepFinish` turns each step's tool calls, tool results, tool errors and text into Wayfinder steps;
 * `prepareStep` puts the corrections that came back into the messages of the next model call (a hint
 * as a system message at the front, rollback, replan) and stops the run with AgentFrozenError on a
 * freeze. The AI SDK rebuilds the messages of every step from its own history, so the corrected view is
 * kept here and extended with what each step adds. Needs the optional peer `ai`.
 */
import type { ModelMessage, StepResult, ToolSet } from 'ai';
import type { JsonValue } from '@wayfinder/contracts';
import { MessageSeqs } from '../../apply/apply-correction';
import type { WayfinderClient } from '../../wayfinder-client';
import { PendingCorrections } from '../pending-corrections';

type PrepareStepOptions = { messages: ModelMessage[] };
type PrepareStepOverride = { messages?: ModelMessage[] } | undefined;

export interface AiSdkCallbacks<TOOLS extends ToolSet = ToolSet> {
  onStepFinish?: (step: StepResult<TOOLS>) => unknown;
  prepareStep?: (options: PrepareStepOptions & Record<string, unknown>) => unknown;
}

export class WayfinderAiSdk {
  readonly seqs = new MessageSeqs();
  private readonly pending: PendingCorrections;
  private view: ModelMessage[] | undefined;
  private seen = 0;

  constructor(readonly client: WayfinderClient) {
    this.pending = new PendingCorrections(client);
  }

  /** Corrections applied so far. */
  get applied() {
    return this.pending.applied;
  }

  /** Publishes a finished step: tool calls → actions, results → observations, text → a message. */
  readonly onStepFinish = async (step: StepResult<ToolSet>): Promise<void> => {
    for (const part of step.content) {
      if (part.type === 'tool-call') await this.client.action(part.toolName, argsOf(part.input), { callId: part.toolCallId });
      else if (part.type === 'tool-result') await this.client.observation(part.toolName, { callId: part.toolCallId, content: json(part.output) });
      else if (part.type === 'tool-error') await this.client.observation(part.toolName, { callId: part.toolCallId, error: errorText(part.error) });
    }
    if (step.text) await this.client.message(step.text, 'assistant');
  };

  /** Applies the corrections that arrived to the messages of the next model call. */
  readonly prepareStep = async ({ messages }: PrepareStepOptions): Promise<PrepareStepOverride> => {
    const fresh = messages.slice(this.seen);
    this.seen = messages.length;
    // The step just published made these messages: they roll back with it.
    if (this.client.lastSeq >= 0) for (const m of fresh) this.seqs.record(m, this.client.lastSeq);
    if (this.view) this.view.push(...fresh);
    await this.client.flush();
    if (this.pending.size === 0) return this.view ? { messages: this.view } : undefined;
    this.view = await this.pending.applyTo(this.view ?? messages, {
      seqs: this.seqs,
      systemMessage: (text) => ({ role: 'system', content: text }),
      isSystem: (m) => m.role === 'system',
    });
    return { messages: this.view };
  };

  /**
   * Options to spread into generateText/streamText; callbacks of your own are called too (yours first
   * for onStepFinish; yours after ours for prepareStep, with the corrected messages).
   */
  settings<TOOLS extends ToolSet = ToolSet>(own: AiSdkCallbacks<TOOLS> = {}) {
    return {
      // The hint is a system message among the messages: allowed, without the SDK's warning.
      allowSystemInMessages: true,
      onStepFinish: async (step: StepResult<TOOLS>) => {
        await own.onStepFinish?.(step);
        await this.onStepFinish(step as unknown as StepResult<ToolSet>);
      },
      prepareStep: async (options: PrepareStepOptions & Record<string, unknown>) => {
        const ours = await this.prepareStep(options);
        const theirs = (await own.prepareStep?.({ ...options, messages: ours?.messages ?? options.messages })) as PrepareStepOverride;
        return theirs ?? ours;
      },
    };
  }

  close(): Promise<void> {
    return this.pending.close();
  }
}

/** `const wayfinder = withWayfinder(client); await generateText({model, tools, ...wayfinder.settings()})`. */
export function withWayfinder(client: WayfinderClient): WayfinderAiSdk {
  return new WayfinderAiSdk(client);
}

function argsOf(input: unknown): Record<string, JsonValue> {
  const value = json(input);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { input: value };
}

function json(value: unknown): JsonValue {
  try {
    return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
  } catch {
    return String(value);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(json(error));
}
