/**
 * patches/kafkajs+2.2.4.patch (applied by npm's postinstall through patch-package): kafkajs' protocol
 * Encoder allocates its buffers with Buffer.allocUnsafe instead of Buffer.alloc. Every produce request
 * builds one Encoder per record and grows each by copying into a new buffer; zero-filling them, each on an
 * ArrayBuffer of its own, was ~10 µs of CPU per step in the pipeline's profile (issue #17). Safe because an
 * Encoder only ever exposes the bytes it wrote (`buffer` is the slice up to its offset). This checks that
 * the patch is in place and that the output carries no stale bytes when the pool it draws from is dirty.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Encoder = require('kafkajs/src/protocol/encoder') as new (initialSize?: number) => {
  buf: Buffer;
  readonly buffer: Buffer;
  writeInt32(value: number): unknown;
  writeString(value: string): unknown;
  writeBytes(value: Buffer | string): unknown;
  writeVarIntString(value: string): unknown;
};

describe("kafkajs' Encoder (patched)", () => {
  it('draws small buffers from the pool (allocUnsafe), not a zero-filled buffer of their own', () => {
    const encoder = new Encoder();
    expect(encoder.buf.length).toBe(512);
    expect(encoder.buf.buffer.byteLength).toBe(Buffer.poolSize);
  });

  it('exposes exactly the bytes written, whatever the pool held, across the growth of its buffer', () => {
    // Dirty the pool: the next allocUnsafe slices come from memory full of 0xAA.
    for (let i = 0; i < 16; i++) Buffer.allocUnsafe(512).fill(0xaa);
    const encoder = new Encoder(8);
    const value = 'é'.repeat(600); // grows 8 → 16 → … → 2048 bytes
    encoder.writeInt32(7);
    encoder.writeString(value);
    encoder.writeBytes(Buffer.from([1, 2, 3]));
    encoder.writeVarIntString('key');

    const expected = Buffer.concat([
      Buffer.from([0, 0, 0, 7]),
      Buffer.from([0x04, 0xb0]), // INT16 length 1,200
      Buffer.from(value, 'utf8'),
      Buffer.from([0, 0, 0, 3, 1, 2, 3]),
      Buffer.from([0x06]), // zig-zag varint length 3
      Buffer.from('key'),
    ]);
    expect(encoder.buffer.equals(expected)).toBe(true);
  });
});
