// A 40 MiB streamed line fed in many small chunks is split in linear time (its pieces are kept in a
// list and joined once at its newline), and a line past the bound is dropped from the answer while the
// normal lines after it are still assembled. No timing asserts: the quadratic version never finished.
import { ChatStreamAssembler } from './chat-stream';

const MiB = 1024 * 1024;
const delta = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

function feed(assembler: ChatStreamAssembler, text: string, chunk: number): number {
  let held = 0;
  for (let at = 0; at < text.length; at += chunk) {
    assembler.push(text.slice(at, at + chunk));
    held = Math.max(held, assembler.pendingLength);
  }
  return held;
}

describe('ChatStreamAssembler with a long line', () => {
  it('assembles a 40 MiB single-line stream in 4 KiB chunks, and the normal line after it', () => {
    const payload = 'x'.repeat(40 * MiB);
    const assembler = new ChatStreamAssembler(64 * MiB);
    feed(assembler, `${delta(payload)}${delta(' and the end')}data: [DONE]\n\n`, 4096);
    const answer = assembler.answer();
    expect(answer.text.length).toBe(40 * MiB + ' and the end'.length);
    expect(answer.text.endsWith('x and the end')).toBe(true);
    expect(assembler.done).toBe(true);
    expect(assembler.dropped).toBe(0);
  });

  it('drops a line past the bound without holding more than the bound, and keeps the next line', () => {
    const max = 1 * MiB;
    const assembler = new ChatStreamAssembler(max);
    const held = feed(assembler, `${delta('y'.repeat(40 * MiB))}${delta('the normal line')}data: [DONE]\n\n`, 1000);
    expect(held).toBeLessThanOrEqual(max);
    expect(assembler.answer()).toEqual({ text: 'the normal line', toolCalls: [] });
    expect(assembler.dropped).toBe(1);
    expect(assembler.unreadable).toBe(0);
    expect(assembler.done).toBe(true);
  });

  it('cuts the assembled text at the bound', () => {
    const assembler = new ChatStreamAssembler(100);
    for (let i = 0; i < 20; i++) assembler.push(delta('abcdefghij'));
    expect(assembler.answer().text).toBe('abcdefghij'.repeat(10));
    expect(assembler.truncated).toBe(true);
  });
});
