/**
 * The handler on the model only (tools invoked without it): the model keeps asking for read_file, the
 * tools run, and the handler sees no tool run. It warns once, naming the tool and how to pass the handler
 * to the tools; with the tools wired, it never warns.
 */
import { AIMessageChunk, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { z } from 'zod';
import { createGuard } from '../../connect';
import { WayfinderCallbackHandler } from './wayfinder-callback-handler';

async function loop(wireTools: boolean): Promise<{ warnings: string[]; actions: number }> {
  const client = createGuard({ agentId: `lc-${wireTools ? 'wired' : 'unwired'}`, taskId: 'sales-report' });
  const warnings: string[] = [];
  const handler = new WayfinderCallbackHandler(client, { warn: (message) => warnings.push(message) });
  const readFile = tool(async ({ path }: { path: string }) => `contents of ${path}`, { name: 'read_file', description: 'Reads a file', schema: z.object({ path: z.string() }) });
  const model = new FakeStreamingChatModel({
    chunks: [new AIMessageChunk({ content: '', tool_calls: [{ name: 'read_file', args: { path: '/data/sales.csv' }, id: 'call_1', type: 'tool_call' }] })],
  }).bindTools([readFile]);
  const messages: BaseMessage[] = [new HumanMessage('Write the sales report.')];
  for (let turn = 0; turn < 3; turn++) {
    const reply = await model.invoke(messages, { callbacks: [handler] });
    messages.push(reply);
    for (const call of reply.tool_calls ?? []) {
      const result = (await readFile.invoke(call, wireTools ? { callbacks: [handler] } : {})) as ToolMessage;
      messages.push(result);
    }
  }
  await handler.close();
  const actions = client.lastSeq + 1;
  await client.close();
  return { warnings, actions };
}

describe('LangChain.js handler with tools not run through it', () => {
  it('warns once, naming the tool and how to wire it', async () => {
    const { warnings } = await loop(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('read_file');
    expect(warnings[0]).toContain('callbacks: [handler]');
  });

  it('stays quiet when the tools run through it', async () => {
    const { warnings, actions } = await loop(true);
    expect(warnings).toEqual([]);
    expect(actions).toBeGreaterThanOrEqual(6);
  });
});
