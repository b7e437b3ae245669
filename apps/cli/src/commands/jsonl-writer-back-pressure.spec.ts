import { Writable } from 'node:stream';
import { LineWriter } from './jsonl-writer';

describe('LineWriter', () => {
  it('waits for drain when the stream pushes back and keeps every line in order', async () => {
    const received: string[] = [];
    let waits = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk, _encoding, done) {
        received.push(chunk.toString());
        setImmediate(done);
      },
    });
    slow.on('drain', () => waits++);
    const writer = new LineWriter(slow);
    for (let i = 0; i < 20_000; i++) {
      const pending = writer.json({ i, pad: 'x'.repeat(20) });
      if (pending) await pending;
    }
    await writer.flush();
    await new Promise<void>((resolve) => slow.end(resolve));

    const lines = received.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(20_000);
    expect(lines.map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
    expect(waits).toBeGreaterThan(0);
    expect(slow.writableLength).toBe(0);
  });

  it('holds small output until flush', async () => {
    const received: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        received.push(chunk.toString());
        done();
      },
    });
    const writer = new LineWriter(sink);
    expect(writer.line('a')).toBeUndefined();
    expect(received).toEqual([]);
    await writer.flush();
    expect(received).toEqual(['a\n']);
  });
});
