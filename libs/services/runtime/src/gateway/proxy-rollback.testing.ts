/**
 * Issue #30, "the same rollback everywhere": through the LLM proxy a rollback was only a note ("your steps
 * after … were rolled back") while the upstream still received the whole loop. Now a pending rollback
 * removes the conversation's messages after its checkpoint before forwarding (the SDK's rule, shared from
 * @wayfinder/correction), the note says what went (how many turns and messages, back to which step), and
 * the agent's later requests — which still carry those messages — reach the upstream without them too.
 * A fake upstream records what it receives, for chat completions and for Anthropic messages; the rollback is
 * published on the corrections topic as the engine would. Run embedded (proxy-rollback-removes-looped-turns.spec.ts)
 * and on Kafka (proxy-rollback-on-kafka.int-spec.ts).
 */
import { CORRECTION_SCHEMA, type Correction } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fake-anthropic-upstream.testing';
import { startFakeLlmUpstream, type FakeLlmUpstream } from './fake-llm-upstream.testing';
import { call, eventually } from './gateway.testing';

const KEY = 'acme-rollback-key';
/** A second tenant whose policy names the Anthropic upstream (a policy's upstream serves every dialect). */
const CLAUDE_KEY = 'globex-rollback-key';
const SYSTEM = 'You are the report agent. Use the tools.';
const TASK = 'Read the sales data, compute the totals, write the report.';

function rollback(tenantId: string, agentId: string, discardAfterSeq: number, atSeq: number): Correction {
  return {
    schema: CORRECTION_SCHEMA, eventId: `rollback-${agentId}`, tenantId, ts: new Date().toISOString(), agentId, taskId: agentId, runId: null,
    deviationIds: ['dev-1'], severity: 'moderate', atSeq, reason: 'read_file was called again and again with the same arguments',
    action: 'rollback', rollback: { checkpointId: `cp:${agentId}:read:${discardAfterSeq}`, milestoneId: 'read', discardAfterSeq },
  };
}

/** A running Wayfinder with its gateway: its base URL, the bus its services read, and how to stop it. */
export interface RunningGateway {
  readonly base: string;
  readonly bus: Bus;
  stop(): Promise<void>;
}

/**
 * The rollback specs through the LLM proxy, on whichever runtime `start` gives (embedded or on Kafka): given
 * the env naming the tenants' keys and allowing the loopback upstreams.
 */
export function describeRollbackThroughTheProxy(runtime: string, start: (env: Record<string, string>) => Promise<RunningGateway>, timeoutMs = 30_000): void {
  describe(`a rollback through the LLM proxy (${runtime})`, () => {
    let openai: FakeLlmUpstream;
    let anthropic: FakeAnthropicUpstream;
    let running: RunningGateway;
    let base: string;

    beforeAll(async () => {
      openai = await startFakeLlmUpstream();
      anthropic = await startFakeAnthropicUpstream();
      running = await start({ WAYFINDER_API_KEYS: `acme:${KEY},globex:${CLAUDE_KEY}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
      base = running.base;
      expect((await call(base, 'PUT', '/v1/policy', { key: KEY, body: { policy: {}, proxy: { upstream: openai.url } } })).status).toBe(200);
      expect((await call(base, 'PUT', '/v1/policy', { key: CLAUDE_KEY, body: { policy: {}, proxy: { upstream: anthropic.url } } })).status).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await running?.stop();
      await openai?.close();
      await anthropic?.close();
    });

    async function rollbackPending(key: string, correction: Correction): Promise<void> {
      await running.bus.publish('wayfinder.corrections.v1', [correction]);
      await eventually(async () => ((await call(base, 'GET', `/v1/agents/${correction.agentId}/corrections`, { key })).body.corrections as Array<{ action: string }>).some((c) => c.action === 'rollback'), 20_000, 'the rollback in the log');
    }

    it('chat completions: the looped turns are absent, the note says what went, and they stay out', async () => {
      const agent = 'chat-looper';
      type Message = { role: string; content?: unknown; tool_calls?: Array<{ id: string }>; tool_call_id?: string };
      const messages: Message[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: TASK }];
      const turn = async (part: number) => {
        const res = await fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-wayfinder-key': KEY, 'x-wayfinder-agent': agent, authorization: 'Bearer sk-upstream' },
          body: JSON.stringify({ model: 'fake', messages }),
        });
        expect(res.status).toBe(200);
        const answer = (await res.json()) as { choices: Array<{ message: Message }> };
        const said = answer.choices[0].message;
        messages.push(said, { role: 'tool', tool_call_id: said.tool_calls![0].id, content: `rows of part ${part}` }); // eslint-disable-line @typescript-eslint/no-non-null-assertion
      };
      // Four turns: each an action (seq 2i) and its result (2i+1). Roll back to seq 3, the end of turn 1.
      for (let part = 0; part < 4; part++) await turn(part);
      await rollbackPending(KEY, rollback('acme', agent, 3, 7));

      await turn(4);
      const rolledBack = openai.requests.at(-1)!.body.messages; // eslint-disable-line @typescript-eslint/no-non-null-assertion
      const note = 'Wayfinder rolled back your last 2 turns (4 messages), back to step 3 (milestone read): read_file was called again and again with the same arguments. They are no longer in this conversation; continue from there and do not repeat them.';
      expect(rolledBack).toEqual([messages[0], { role: 'system', content: note }, ...messages.slice(1, 6)]);
      expect(rolledBack.map((m) => m.content)).not.toContain('rows of part 2');
      expect(rolledBack.map((m) => m.content)).not.toContain('rows of part 3');

      // The agent still sends the loop: it stays out, the note went in once, the new turn follows the checkpoint.
      await turn(5);
      const after = openai.requests.at(-1)!.body.messages; // eslint-disable-line @typescript-eslint/no-non-null-assertion
      expect(after).toEqual([...messages.slice(0, 6), ...messages.slice(10, 12)]);
    }, timeoutMs);

    it('Anthropic messages: the looped turns are absent and the note is in system', async () => {
      const agent = 'claude-looper';
      type Block = { type: string; id?: string; [key: string]: unknown };
      const messages: Array<{ role: string; content: string | Block[] }> = [{ role: 'user', content: TASK }];
      const turn = async (part: number) => {
        const res = await fetch(`${base}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-wayfinder-key': CLAUDE_KEY, 'x-wayfinder-agent': agent, 'x-api-key': 'sk-ant-upstream', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'claude-fake', max_tokens: 256, system: SYSTEM, messages }),
        });
        expect(res.status).toBe(200);
        const answer = (await res.json()) as { content: Block[] };
        const use = answer.content.find((b) => b.type === 'tool_use')!; // eslint-disable-line @typescript-eslint/no-non-null-assertion
        messages.push({ role: 'assistant', content: answer.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: `rows of part ${part}` }] });
      };
      // Each turn: the text (seq 3i), the tool use (3i+1), the result (3i+2). Roll back to seq 5, the end of turn 1.
      for (let part = 0; part < 4; part++) await turn(part);
      await rollbackPending(CLAUDE_KEY, rollback('globex', agent, 5, 11));

      await turn(4);
      const rolledBack = anthropic.requests.at(-1)!.body; // eslint-disable-line @typescript-eslint/no-non-null-assertion
      expect(rolledBack.messages).toEqual(messages.slice(0, 5));
      expect(rolledBack.system).toBe(`${SYSTEM}\n\nWayfinder rolled back your last 2 turns (4 messages), back to step 5 (milestone read): read_file was called again and again with the same arguments. They are no longer in this conversation; continue from there and do not repeat them.`);

      await turn(5);
      const after = anthropic.requests.at(-1)!.body; // eslint-disable-line @typescript-eslint/no-non-null-assertion
      // The note went in once (the pipeline may hint about the fake's repeated text meanwhile).
      expect(String(after.system)).not.toContain('rolled back');
      expect(after.messages).toEqual([...messages.slice(0, 5), ...messages.slice(9, 11)]);
    }, timeoutMs);
  });
}
