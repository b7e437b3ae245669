import * as path from 'node:path';
import { runCli } from '../main';
import { captureIo } from './cli-test-io';

const DIR = path.join(__dirname, 'fixtures', 'trail');

describe('wayfinder eval trail on a two-trace set', () => {
  it('prints one JSON object scoring the loop trace as found and localized, the clean one as not flagged', async () => {
    const io = captureIo();
    expect(await runCli(['eval', 'trail', DIR], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]);
    expect(report).toMatchObject({ traces: 3, positives: 1, negatives: 2, profile: 'balanced', missingTraces: 1, invalidLines: 0, events: 59 });
    expect(report.loop).toMatchObject({ recall: 1, falsePositiveRate: 0, localized: 1, flaggedPositives: 1, flaggedNegatives: 0 });
    expect(report.drift).toMatchObject({ positives: 0, recall: 0 });
    // Lead time beside them: the same search with the same empty answer is caught at its third call, two
    // calls after the loop's onset (the first call of the repeated pattern).
    expect(report.loop.leadTime).toEqual({ measured: 1, unit: 'calls', mean: 2, median: 2, max: 2 });
    // 95% Wilson intervals: 1 of 1 positive found, 0 of 2 negatives flagged.
    expect(report.loop.recallInterval.high).toBe(1);
    expect(report.loop.recallInterval.low).toBeCloseTo(0.2065, 3);
    expect(report.loop.falsePositiveRateInterval).toMatchObject({ low: 0 });
    expect(report.loop.falsePositiveRateInterval.high).toBeCloseTo(0.6576, 3);
    expect(io.err()).toMatch(/missing-trace\.jsonl: labelled trace not found/);
  });

  it('uses the profile it is given', async () => {
    const io = captureIo();
    expect(await runCli(['eval', 'trail', DIR, '--profile', 'openclaw'], io)).toBe(0);
    expect(JSON.parse(io.out()).profile).toBe('openclaw');
  });
});
