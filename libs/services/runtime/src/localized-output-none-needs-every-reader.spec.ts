/**
 * WAYFINDER_LOCALIZED_OUTPUT=none keeps the localized steps in the process (DESIGN §14, issue #17): it is
 * accepted only when the fused localizer and every reader of localized steps run there, and refused with
 * what is missing otherwise (an absent reader would never see a step); `publish` (the default) fuses
 * nothing locally.
 */
import { loadConfig } from '@wayfinder/config';
import { fusedTopicsOf, localFusedTopicsOf } from './runtime';

const distributed = (env: Record<string, string>) => loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_PIPELINE: 'fused', ...env });

describe('WAYFINDER_LOCALIZED_OUTPUT', () => {
  it('defaults to publish: the localized steps stay an output on Kafka', () => {
    const config = distributed({});
    expect(config.localizedOutput).toBe('publish');
    expect(localFusedTopicsOf(config)).toEqual([]);
  });

  it('one-pass: the navigator hands them in process to the history recorder and memory service, and with none publishes nothing', () => {
    const onePass = distributed({ WAYFINDER_PIPELINE: 'one-pass', WAYFINDER_SERVICES: 'navigator,history-recorder,memory-service' });
    expect(fusedTopicsOf(onePass)).toEqual(['wayfinder.localized.v1']);
    expect(localFusedTopicsOf(onePass)).toEqual([]);
    expect(localFusedTopicsOf({ ...onePass, localizedOutput: 'none' })).toEqual(['wayfinder.localized.v1']);
    expect(() => localFusedTopicsOf({ ...onePass, localizedOutput: 'none', services: ['navigator', 'history-recorder'] })).toThrow('(missing: memory-service)');
  });

  it('none keeps them in process when every reader runs there', () => {
    expect(localFusedTopicsOf(distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'none' }))).toEqual(['wayfinder.localized.v1']);
  });

  it('none is refused, naming what is missing, when a reader or the fused pipeline is not there', () => {
    const noMemory = distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'none', WAYFINDER_SERVICES: 'state-localizer,detector-worker,correction-engine,history-recorder' });
    expect(() => localFusedTopicsOf(noMemory)).toThrow('(missing: memory-service)');
    const separate = distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'none', WAYFINDER_PIPELINE: 'separate' });
    expect(() => localFusedTopicsOf(separate)).toThrow('(WAYFINDER_PIPELINE, now separate)');
    expect(() => distributed({ WAYFINDER_LOCALIZED_OUTPUT: 'nobody' })).toThrow('WAYFINDER_LOCALIZED_OUTPUT');
  });
});
