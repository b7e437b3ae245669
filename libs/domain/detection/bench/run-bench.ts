/** Runs the detector benchmark and prints its result as JSON (see detectors.bench.ts). */
import { runDetectorBench } from './detectors.bench';

const stateAgents = Number(process.env.STATE_AGENTS ?? 100_000);
process.stdout.write(`${JSON.stringify(runDetectorBench({ stateAgents }))}\n`);
