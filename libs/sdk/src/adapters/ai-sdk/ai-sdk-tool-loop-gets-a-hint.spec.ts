/**
 * A Vercel AI SDK tool loop (the real `ai` 6 generateText with MockLanguageModelV3, which keeps calling
 * the same read_file tool that keeps failing) run against the in-process guard: onStepFinish publishes
 * each tool call and tool error as an action and an observation paired by call id, prepareStep puts
 * the hint into the prompt of the following model call, and the freeze stops the run with
 * AgentFrozenError.
 */
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { StepEvent } from '@wayfinder/contracts';
import { AgentFrozenError } from '../../apply/apply-correction';
import { createGuard } from '../../connect';
import { withWayfinder } from './wayfinder-ai-sdk';

describe('Vercel AI SDK integration', () => {
  it('publishes the tool loop as steps and injects the hint into the next prompt', async () => {
    const steps: StepEvent[] = [];
    const client = createGuard({ agentId: 'ai-agent', taskId: 'sales-report' });
    const publish = client.guard.publish.bind(client.guard);
    client.guard.publish = async (batch) => {
      steps.push(...(batch as StepEvent[]));
      return publish(batch);
    };
    const wayfinder = withWayfinder(client);
    let n = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'tool-call', toolCallId: `call-${n++}`, toolName: 'read_file', input: JSON.stringify({ path: '/data/sales.csv' }) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
        warnings: [],
      }),
    });
    const tools = {
      read_file: tool({
        description: 'Reads a file',
        inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
        execute: async ({ path }: { path: string }): Promise<string> => {
          throw new Error(`EACCES: permission denied, open ${path}`);
        },
      }),
    };

    const run = generateText({
      model,
      tools,
      system: 'You are a data analyst.',
      messages: [{ role: 'user', content: 'Write the sales report.' }],
      stopWhen: stepCountIs(25),
      ...wayfinder.settings(),
    });
    await expect(run).rejects.toBeInstanceOf(AgentFrozenError);
    await wayfinder.close();

    const actions = steps.filter((s): s is Extract<StepEvent, { kind: 'action' }> => s.kind === 'action');
    const observations = steps.filter((s): s is Extract<StepEvent, { kind: 'observation' }> => s.kind === 'observation');
    expect(actions[0].action).toEqual({ tool: 'read_file', args: { path: '/data/sales.csv' }, callId: 'call-0' });
    expect(observations[0].observation).toMatchObject({ tool: 'read_file', callId: 'call-0', ok: false, error: 'EACCES: permission denied, open /data/sales.csv' });
    expect(observations.map((o) => o.observation.callId)).toEqual(actions.map((a) => a.action.callId));
    expect(steps.map((s) => s.seq)).toEqual([...steps.keys()]);

    expect(wayfinder.applied.map((c) => c.action)).toEqual(['hint', 'rollback', 'replan', 'freeze']);
    const prompts = model.doGenerateCalls.map((call) => call.prompt);
    const hinted = prompts.findIndex((p) => p.some((m) => m.role === 'system' && m.content.startsWith('[Wayfinder]')));
    expect(hinted).toBeGreaterThan(0);
    expect(prompts[hinted][0]).toEqual({ role: 'system', content: 'You are a data analyst.' });
    expect(prompts[hinted][1].role).toBe('system');
    expect(prompts[0].some((m) => m.role === 'system' && m.content.startsWith('[Wayfinder]'))).toBe(false);
    // The rollback shortened the history the model saw (to the start of the task: the user's message).
    const lengths = prompts.map((p) => p.length);
    const shrunk = lengths.findIndex((len, i) => i > 0 && len < lengths[i - 1]);
    expect(shrunk).toBeGreaterThan(hinted);
    expect(prompts[shrunk].filter((m) => m.role === 'user')).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Write the sales report.' }] }]);
    await client.close();
  });
});
