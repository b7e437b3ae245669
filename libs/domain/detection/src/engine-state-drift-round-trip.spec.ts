/**
 * The state as the detector worker persists it (balanced profile, drift plugged in, sketches of messages
 * and near-duplicate calls, two runs) survives the binary codec: the restored engine raises the same
 * deviations on the same following steps. Drift's vectors travel as int8, so its similarity evidence
 * agrees to 0.01; a second round trip is then exact to the byte.
 */
import type { Deviation } from '@wayfinder/contracts';
import { driftEngine, driftScenario } from './test-support/drift-engine';
import { runAll } from './test-support/step-builder';

/** A deviation with drift's measured similarities left out (compared separately, to 0.01). */
function comparable(d: Deviation): unknown {
  if (d.detector !== 'drift') return d;
  const { ema: _ema, similarity: _similarity, ...evidence } = d.evidence as Record<string, unknown>;
  return { ...d, evidence, message: d.message.replace(/moving average [\d.]+/, 'moving average ~') };
}

describe('balanced agent state with drift, binary round trip', () => {
  it('continues on the restored engine with the same deviations on the same steps', () => {
    const { head, tail } = driftScenario();
    const a = driftEngine();
    runAll(a, head);
    const state = a.exportAgentState('t1', 'a1') as Uint8Array;
    const b = driftEngine();
    b.importAgentState('t1', 'a1', state.slice());

    const fromA = runAll(a, tail);
    const fromB = runAll(b, tail);
    expect(fromB.map(comparable)).toEqual(fromA.map(comparable));
    fromB.forEach((d, i) => {
      if (d.detector !== 'drift') return;
      expect(d.evidence.similarity as number).toBeCloseTo(fromA[i].evidence.similarity as number, 2);
      expect(d.evidence.ema as number).toBeCloseTo(fromA[i].evidence.ema as number, 2);
    });
    const detectors = new Set(fromA.map((d) => d.detector));
    expect(detectors.has('near_duplicate_calls')).toBe(true);
    expect(detectors.has('drift')).toBe(true);
  });

  it('is exact to the byte from the first restore on', () => {
    const { head, tail } = driftScenario();
    const a = driftEngine();
    runAll(a, head);
    const b = driftEngine();
    b.importAgentState('t1', 'a1', a.exportAgentState('t1', 'a1') as Uint8Array);
    const state = b.exportAgentState('t1', 'a1') as Uint8Array;
    const c = driftEngine();
    c.importAgentState('t1', 'a1', state);
    expect(c.exportAgentState('t1', 'a1')).toEqual(state);
    expect(runAll(c, tail)).toEqual(runAll(b, tail));
    expect(c.exportAgentState('t1', 'a1')).toEqual(b.exportAgentState('t1', 'a1'));
  });
});
