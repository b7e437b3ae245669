/**
 * A LangChain.js tool loop (the real @langchain/core: a fake tool-calling chat model that keeps asking
 * for the same read_file call, a real `tool`, callbacks on both) run against the in-process guard: the
 * handler turns each tool run into an action and an observation paired by call id, and the hint that
 * comes back is in the messages of the next model call, as a SystemMessage after the system prompt.
 */
import { AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { z } from 'zod';
import type { StepEvent } from '@wayfinder/contracts';
import { AgentFrozenError } from '../../apply/apply-correction';
import { createGuard } from '../../connect';
import { WayfinderCallbackHandler } from './wayfinder-callback-handler';

describe('LangChain.js callback handler', () => {
  it('publishes the tool loop as steps and puts the hint in front of the next model call', async () => {
    const steps: StepEvent[] = [];
    const client = createGuard({ agentId: 'lc-agent', taskId: 'sales-report' });
    const publish = client.guard.publish.bind(client.guard);
    client.guard.publish = async (batch) => {
      steps.push(...(batch as StepEvent[]));
      return publish(batch);
    };
    const handler = new WayfinderCallbackHandler(client);

    const readFile = tool(async ({ path }: { path: string }) => {
      throw new Error(`EACCES: permission denied, open ${path}`);
    }, { name: 'read_file', description: 'Reads a file', schema: z.object({ path: z.string() }) });
    const model = new FakeStreamingChatModel({
      chunks: [new AIMessageChunk({ content: '', tool_calls: [{ name: 'read_file', args: { path: '/data/sales.csv' }, id: 'call_1', type: 'tool_call' }] })],
    }).bindTools([readFile]);

    let messages: BaseMessage[] = [new SystemMessage('You are a data analyst.'), new HumanMessage('Write the sales report.')];
    const seenByModel: BaseMessage[][] = [];
    let frozen: AgentFrozenError | undefined;
    try {
      for (let turn = 0; turn < 25; turn++) {
        messages = await handler.applyCorrections(messages);
        seenByModel.push(messages);
        const reply = handler.record(await model.invoke(messages, { callbacks: [handler] }));
        messages.push(reply);
        for (const call of reply.tool_calls ?? []) {
          const result = await readFile.invoke(call, { callbacks: [handler] }).catch((error: Error) => new ToolMessage({ content: error.message, tool_call_id: call.id ?? '', status: 'error' }));
          messages.push(handler.record(result));
        }
      }
    } catch (error) {
      if (!(error instanceof AgentFrozenError)) throw error;
      frozen = error;
    }
    await handler.close();

    const actions = steps.filter((s): s is Extract<StepEvent, { kind: 'action' }> => s.kind === 'action');
    const observations = steps.filter((s): s is Extract<StepEvent, { kind: 'observation' }> => s.kind === 'observation');
    expect(actions.length).toBeGreaterThanOrEqual(4);
    expect(actions[0].action).toMatchObject({ tool: 'read_file', args: { path: '/data/sales.csv' } });
    expect(observations[0].observation).toMatchObject({ tool: 'read_file', ok: false, error: 'EACCES: permission denied, open /data/sales.csv' });
    expect(observations.map((o) => o.observation.callId)).toEqual(actions.slice(0, observations.length).map((a) => a.action.callId));
    expect(steps.map((s) => s.seq)).toEqual([...steps.keys()]);

    expect(handler.applied[0].action).toBe('hint');
    const hinted = seenByModel.find((m) => m.some((x) => x.getType() === 'system' && String(x.content).includes('read_file')));
    expect(hinted?.[0].content).toBe('You are a data analyst.');
    expect(hinted?.[1].getType()).toBe('system');
    expect(String(hinted?.[1].content)).toContain('[Wayfinder]');
    expect(frozen).toBeInstanceOf(AgentFrozenError);
    await client.close();
  });
});
