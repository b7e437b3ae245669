// Whatever JSON an agent posts or a server answers, the MCP door's reading never throws: a tools/call is
// read only when it names a tool, and the steps made of any call and any response hold to the step contract
// (a step the contract refuses would be left out, and the loop behind it unseen).
import fc from 'fast-check';
import { StepEvent } from '@wayfinder/contracts';
import { mcpActionStep, mcpObservationStep, readMcpToolCall, withGuidanceBlock } from './mcp-tool-call';

const identity = { tenantId: 'acme', agentId: 'coder', taskId: 'report', runId: 'sess-1' };
const json = fc.jsonValue({ maxDepth: 4 });
const call = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string({ maxLength: 200 })), method: fc.constant('tools/call'), params: fc.record({ name: fc.string({ maxLength: 140 }), arguments: fc.dictionary(fc.string({ maxLength: 20 }), json, { maxKeys: 5 }) }) });
const response = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), result: fc.oneof(json, fc.record({ content: fc.array(fc.oneof(json, fc.record({ type: fc.constant('text'), text: fc.string() })), { maxLength: 4 }), isError: fc.oneof(fc.boolean(), json) })), error: fc.oneof(fc.constant(undefined), json) });

describe('MCP messages of any shape', () => {
  it('reads a tools/call only when it names a tool, and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(json, call), (message) => {
        const read = readMcpToolCall(message);
        if (read === undefined) return;
        expect(read.name.trim()).not.toBe('');
        expect(read.name.length).toBeLessThanOrEqual(128);
        expect(typeof read.arguments).toBe('object');
      }),
    );
  });

  it('makes steps the contract accepts from any call and any response', () => {
    fc.assert(
      fc.property(call, response, (message, answer) => {
        const read = readMcpToolCall(message);
        if (read === undefined) return;
        expect(StepEvent.safeParse(mcpActionStep(read, identity, 1, 0)).success).toBe(true);
        expect(StepEvent.safeParse(mcpObservationStep(read, answer as Record<string, unknown>, identity, 2, 0)).success).toBe(true);
        const guided = withGuidanceBlock(answer as Record<string, unknown>, 'hint');
        if (guided) expect((guided.result as { content: unknown[] }).content.at(-1)).toEqual({ type: 'text', text: 'hint' });
      }),
    );
  });
});
