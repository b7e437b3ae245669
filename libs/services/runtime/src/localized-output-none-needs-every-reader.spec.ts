/**
 * WAYFINDER_LOCALIZED_OUTPUT=none keeps the navigator's localized steps in the process (DESIGN §14, issue
 * #28): accepted only in one pass with the navigator and every reader of localized steps there, refused
 * with what is missing otherwise (an absent reader would never see a step). And with `none`, the readers
 * still read every step: the history recorder records them (before, the navigator produced none at all).
 */
import type { StepEvent } from '@wayfinder/contracts';
import { loadConfig } from '@wayfinder/config';
import { until } from '@wayfinder/testing';
import { coLocatedReadersOf, localizedStaysLocal, pipelineServices, startServices } from './runtime';

const distributed = (env: Record<string, string>) => {
  const config = loadConfig({ WAYFINDER_MODE: 'distributed', ...env });
  return { ...config, services: pipelineServices(config) };
};

describe('WAYFINDER_LOCALIZED_OUTPUT', () => {
  it('defaults to publish: the localized steps stay an output on Kafka, read in process by the co-located readers', () => {
    const config = distributed({});
    expect(config.localizedOutput).toBe('publish');
    expect(localizedStaysLocal(config)).toBe(false);
    expect(coLocatedReadersOf(config)).toEqual(['history-recorder', 'memory-service']);
  });

  it('one-pass: only the readers that run beside the navigator read in process; separate services read from the bus', () => {
    expect(coLocatedReadersOf(distributed({ WAYFINDER_SERVICES: 'navigator,history-recorder' }))).toEqual(['history-recorder']);
    expect(coLocatedReadersOf(distributed({ WAYFINDER_SERVICES: 'history-recorder,memory-service' }))).toEqual([]);
    expect(coLocatedReadersOf(distributed({ WAYFINDER_PIPELINE: 'separate' }))).toEqual([]);
  });

  it('none is refused, naming what is missing, when a reader or the one-pass pipeline is not there', () => {
    expect(localizedStaysLocal(distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'none' }))).toBe(true);
    const noMemory = distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'none', WAYFINDER_SERVICES: 'navigator,history-recorder' });
    expect(() => localizedStaysLocal(noMemory)).toThrow('(missing: memory-service)');
    const separate = distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'none', WAYFINDER_PIPELINE: 'separate' });
    expect(() => localizedStaysLocal(separate)).toThrow('(WAYFINDER_PIPELINE, now separate)');
    expect(() => distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'nobody' })).toThrow('WAYFINDER_LOCALIZED_OUTPUT');
    expect(() => distributed({ WAYFINDER_PIPELINE: 'fused' })).toThrow('WAYFINDER_PIPELINE');
  });

  it('none still hands every localized step to the history recorder beside the navigator', async () => {
    const running = await startServices(loadConfig({ WAYFINDER_LOCALIZED_OUTPUT: 'none' }), { logger: false });
    try {
      const steps: StepEvent[] = [0, 1, 2].map((seq) => ({
        schema: 'wayfinder.step.v1', eventId: `e${seq}`, tenantId: 'acme', agentId: 'a1', taskId: 't', runId: 'r', seq,
        ts: new Date(Date.now() + seq).toISOString(), kind: 'action', action: { tool: 'ls', args: { n: seq }, callId: `c${seq}` },
      }));
      await running.bus.publish('wayfinder.steps.v1', steps);
      let recorded = 0;
      const poll = setInterval(() => void running.history.agentHistory('acme', 'a1').then((records) => (recorded = records.filter((r) => r.kind === 'step').length)), 20);
      try {
        await until(() => recorded === 3, 10_000, 'the three steps in the history');
      } finally {
        clearInterval(poll);
      }
    } finally {
      await running.stop();
    }
  });
});
