/**
 * A v2 state that was cut short or altered (a partial write, a stray byte, another program's value under
 * the key) is refused with an error naming the problem, never restored as garbage, and the engine keeps
 * the state it had.
 */
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DriftDetector } from './drift';
import { CorruptStateError, checksum } from './state/bytes';
import { decodeAgentState } from './state/codec';
import { driftEngine, driftScenario } from './test-support/drift-engine';
import { runAll } from './test-support/step-builder';

function exported(): Uint8Array {
  const engine = driftEngine();
  runAll(engine, driftScenario().head);
  return engine.exportAgentState('t1', 'a1') as Uint8Array;
}

describe('corrupt agent state documents', () => {
  it('refuses every truncation of a v2 document', () => {
    const state = exported();
    for (let length = 0; length < state.length; length++) {
      expect(() => decodeAgentState('t1', 'a1', state.subarray(0, length))).toThrow(CorruptStateError);
    }
    expect(() => decodeAgentState('t1', 'a1', state.subarray(0, 40))).toThrow(/truncated detector state/);
    expect(() => decodeAgentState('t1', 'a1', state.subarray(0, state.length - 1))).toThrow(/corrupt or truncated detector state: checksum mismatch/);
  });

  it('refuses a document with any single byte changed, and one with bytes appended', () => {
    const state = exported();
    for (let i = 0; i < state.length; i++) {
      const altered = state.slice();
      altered[i] ^= 0x10;
      expect(() => decodeAgentState('t1', 'a1', altered)).toThrow(i === 0 ? new RegExp(`unsupported detector state version ${state[0] ^ 0x10}`) : CorruptStateError);
    }
    const longer = new Uint8Array(state.length + 4);
    longer.set(state);
    expect(() => decodeAgentState('t1', 'a1', longer)).toThrow(CorruptStateError);
  });

  it('refuses a well-formed document whose run buffer does not match its history size', () => {
    const state = exported().slice();
    const view = new DataView(state.buffer);
    // The first run: four length-prefixed strings, then its capacity.
    let at = 4 + 8 * 4;
    for (let s = 0; s < 4; s++) at += 4 + view.getUint32(at, true);
    view.setUint32(at, view.getUint32(at, true) + 1, true);
    view.setUint32(state.length - 4, checksum(state, state.length - 4), true);
    expect(() => decodeAgentState('t1', 'a1', state)).toThrow(/corrupt detector state: run buffer of \d+ words where this build lays out \d+/);
  });

  it('leaves the engine with the state it had when the import is refused', () => {
    const { head, tail } = driftScenario();
    const a = driftEngine();
    const b = driftEngine();
    runAll(a, head);
    runAll(b, head);
    const state = a.exportAgentState('t1', 'a1') as Uint8Array;
    expect(() => b.importAgentState('t1', 'a1', state.subarray(0, state.length >> 1))).toThrow(CorruptStateError);
    expect(b.exportAgentState('t1', 'a1')).toEqual(state);
    expect(runAll(b, tail)).toEqual(runAll(a, tail));
  });

  it('refuses drift state bytes that are cut short', () => {
    const drift = new DriftDetector(new HashingEmbedder());
    expect(() => drift.importState('t1', 'a1', new Uint8Array([1, 2, 0, 0, 0, 0]))).toThrow(/truncated drift state/);
  });
});
