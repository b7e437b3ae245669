import { runCli } from '../main';
import { captureIo } from './cli-test-io';

describe('wayfinder bench detectors', () => {
  it('prints one JSON object with both throughputs, state size, state codec cost and the machine', async () => {
    const io = captureIo();
    expect(await runCli(['bench', 'detectors', '--events', '2000', '--agents', '20', '--state-agents', '50'], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]);
    expect(report.toolLoopEventsPerSec).toBeGreaterThan(0);
    expect(report.allDetectorsEventsPerSec).toBeGreaterThan(0);
    expect(report.withoutDriftEventsPerSec).toBeGreaterThan(0);
    expect(typeof report.bytesPerAgent).toBe('number');
    expect(typeof report.withoutDriftBytesPerAgent).toBe('number');
    expect(report.stateEncodeMicros).toBeGreaterThan(0);
    expect(report.stateDecodeMicros).toBeGreaterThan(0);
    // A balanced agent after 40 steps: its history and sketches, and drift's goal vector, at least.
    expect(report.stateBytes).toBeGreaterThan(1000);
    expect(report.options).toEqual({ agents: 20, events: 2000, stateAgents: 50 });
    expect(report.node).toBe(process.version);
    expect(typeof report.cpu).toBe('string');
  });
});
