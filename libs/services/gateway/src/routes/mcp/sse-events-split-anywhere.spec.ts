// The MCP door's SSE reader: a stream split anywhere (inside lines, inside UTF-8 characters) gives the same
// events and passes every byte on; an event past the bound is passed on unread; one event can be rewritten.
import fc from 'fast-check';
import { SseEvents, type SsePiece } from './sse-events';

const STREAM = [
  'event: message\nid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"message":"lecture…"}}\n\n',
  ': keep-alive\n\n',
  'event: message\r\nid: 2\r\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"données ✓"}]}}\r\n\r\n',
].join('');

function run(chunks: Uint8Array[], max = 1 << 20): { pieces: SsePiece[]; reader: SseEvents } {
  const reader = new SseEvents(max);
  const pieces = chunks.flatMap((c) => reader.push(c));
  pieces.push(...reader.end());
  return { pieces, reader };
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.slice(last, p));
    last = p;
  }
  return out;
}

describe('SSE events through the MCP door', () => {
  const bytes = new TextEncoder().encode(STREAM);

  it('reads the same events and passes every character on, wherever the stream is split', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const { pieces } = run(splitAt(bytes, cuts));
        expect(pieces.map((p) => p.text).join('')).toBe(STREAM);
        const messages = pieces.filter((p): p is Extract<SsePiece, { message: unknown }> => 'message' in p).map((p) => p.message);
        expect(messages).toEqual([
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1, message: 'lecture…' } },
          { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'données ✓' }] } },
        ]);
      }),
    );
  });

  it('rewrites an event keeping its event and id lines', () => {
    const { pieces } = run([bytes]);
    const answer = pieces.find((p): p is Extract<SsePiece, { message: unknown }> => 'message' in p && (p.message as { id?: number }).id === 7)!;
    expect(answer.rewrite({ jsonrpc: '2.0', id: 7, result: { content: [] } })).toBe('event: message\nid: 2\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n');
  });

  it('passes an event past the bound on unread, and reads the next one', () => {
    const big = `data: {"text":"${'x'.repeat(500)}"}\n\n`;
    const small = 'data: {"id":1,"result":{}}\n\n';
    const whole = new TextEncoder().encode(big + small);
    const { pieces, reader } = run(splitAt(whole, [100, 200, 300, 515]), 128);
    expect(pieces.map((p) => p.text).join('')).toBe(big + small);
    expect(reader.unread).toBe(1);
    expect(pieces.filter((p) => 'message' in p).map((p) => (p as { message: unknown }).message)).toEqual([{ id: 1, result: {} }]);
  });
});
