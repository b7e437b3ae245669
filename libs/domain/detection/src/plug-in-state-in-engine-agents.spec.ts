/**
 * Plug-ins plugged into an engine keep their per-agent state in the engine's own agents (a slot each, no
 * map of their own, issue #14): the same deviations as the same plug-ins standalone, their state leaves
 * memory with the engine's agent, an import replaces only what the document holds for them (as their
 * own maps did), and a hosted plug-in plugs into one engine only.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine } from './detection.engine';
import { DriftDetector } from './drift';
import { policy } from './drift/testing/drift-steps';
import { driftScenario } from './test-support/drift-engine';
import { runAll } from './test-support/step-builder';
import type { DetectionContext, DeviationDraft, StepDetector } from './types';

/** Drift as a plug-in that does not take the engine's slots: its own maps, the layout before. */
class UnhostedDrift implements StepDetector {
  readonly name = 'drift' as const;
  readonly inner = new DriftDetector(new HashingEmbedder());
  onStep(step: StepEvent, position: undefined, ctx: DetectionContext): DeviationDraft[] {
    return this.inner.onStep(step, position, ctx);
  }
  exportState(tenantId: string, agentId: string): unknown {
    return this.inner.exportState(tenantId, agentId);
  }
  importState(tenantId: string, agentId: string, state: unknown): void {
    this.inner.importState(tenantId, agentId, state);
  }
  forget(tenantId: string, agentId: string): void {
    this.inner.forget(tenantId, agentId);
  }
}

function engineWith(drift: StepDetector): DetectionEngine {
  return new DetectionEngine({ policyFor: () => ({ policy }), extraDetectors: [drift] });
}

describe('plug-in state in the engine agents', () => {
  it('gives the same deviations and the same persisted bytes as the plug-in with maps of its own', () => {
    const { head, tail } = driftScenario();
    const hostedDrift = new DriftDetector(new HashingEmbedder());
    const hosted = engineWith(hostedDrift);
    const own = new UnhostedDrift();
    const unhosted = engineWith(own);
    const fromHosted = runAll(hosted, [...head, ...tail]);
    expect(fromHosted).toEqual(runAll(unhosted, [...head, ...tail]));
    expect(fromHosted.some((d) => d.detector === 'drift')).toBe(true);
    expect(hosted.exportAgentState('t1', 'a1')).toEqual(unhosted.exportAgentState('t1', 'a1'));
    expect(hostedDrift.agentCount).toBe(1);
    expect(own.inner.agentCount).toBe(1);
  });

  it('frees the plug-ins state with the engine agent', () => {
    const { head } = driftScenario();
    const drift = new DriftDetector(new HashingEmbedder());
    const engine = engineWith(drift);
    runAll(engine, head);
    expect(drift.exportState('t1', 'a1')).toBeInstanceOf(Uint8Array);
    engine.forgetAgent('t1', 'a1');
    expect(engine.agentCount).toBe(0);
    expect(drift.agentCount).toBe(0);
    expect(drift.exportState('t1', 'a1')).toBeUndefined();
  });

  it('on import keeps the plug-in runs the document does not hold, like maps of its own did', () => {
    const { head, tail } = driftScenario();
    const engines = [engineWith(new DriftDetector(new HashingEmbedder())), engineWith(new UnhostedDrift())];
    const out = engines.map((engine) => {
      runAll(engine, head);
      // A document of the engine's state alone (no drift entry): drift's runs stay as they were.
      const bare = new DetectionEngine({ policyFor: () => ({ policy }) });
      runAll(bare, head.slice(0, 3));
      engine.importAgentState('t1', 'a1', bare.exportAgentState('t1', 'a1') as Uint8Array);
      return [runAll(engine, tail), engine.exportAgentState('t1', 'a1')] as const;
    });
    expect(out[0]).toEqual(out[1]);
    expect(out[0][0].some((d) => d.detector === 'drift')).toBe(true);
  });

  it('refuses a second engine for one hosted plug-in, and a plug-in step for an agent its engine does not hold', () => {
    const drift = new DriftDetector(new HashingEmbedder());
    engineWith(drift);
    expect(() => engineWith(drift)).toThrow(/one engine only/);
    const { head } = driftScenario();
    expect(() => drift.onStep(head[0], undefined, { policy })).toThrow(/does not hold/);
  });
});
