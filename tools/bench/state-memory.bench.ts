/**
 * Detector state per agent in process (issue 14, DESIGN §7 memory budget): the engine as the detector
 * worker builds it (balanced profile from a PolicyBook, hashing vectors, drift and the goal checks) fed
 * the fleet steps of the worker-memory bench (tools/bench/scale-bench.ts) (every detector touched; each parsed from JSON with its own
 * `ts`, as the worker reads them); heap + external after full collections, before and after. What the
 * worker-memory bench measures without Kafka, Redis and the worker around it, so a change to the state layout
 * reads in a minute. Run with
 *   node --expose-gc bin/run-ts.js tools/bench/state-memory.bench.ts [agents] [steps] [snapshotDir|-] [unique]
 * `unique`: every agent with a goal text of its own (fleet-steps.ts `uniqueGoals`: no reference shared).
 * With snapshotDir a heap snapshot is written once loaded (to see what the bytes are). Twice, each time
 * the first run after the libraries' sources changed, it read almost nothing added (~30 B per agent: a
 * baseline inflated by something gone by the end, not diagnosed; the compile by @swc-node/register is the
 * suspect): run it twice and check that `agents held` and the retained figures make sense.
 */
import { HashingEmbedder, hashingVectors } from '@wayfinder/embeddings';
import { DetectionEngine, DriftDetector, goalCheckDetectors, PolicyBook } from '@wayfinder/detection';
import { everyDetectorStep } from './fleet-steps';

function retained(): number {
  const gc = (global as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const agents = Number(process.argv[2] ?? 20_000);
const steps = Number(process.argv[3] ?? 16);
const snapshotDir = process.argv[4] && process.argv[4] !== '-' ? process.argv[4] : undefined;
const uniqueGoals = process.argv[5] === 'unique';

const embedder = new HashingEmbedder();
const vectors = hashingVectors(embedder);
const policies = new PolicyBook();
const engine = new DetectionEngine({
  embedder,
  vectors,
  policyFor: (step) => policies.contextFor(step),
  extraDetectors: [new DriftDetector(vectors), ...goalCheckDetectors(embedder)],
});
const parsed = (a: number, s: number, ts: string) => JSON.parse(JSON.stringify(everyDetectorStep(a, s, ts, uniqueGoals))) as ReturnType<typeof everyDetectorStep>;
const position = { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' as const };
// Warm-up on other agents so compiled policies, caches and code are in the baseline, then forgotten.
for (let s = 0; s < steps; s++) for (let a = 0; a < 50; a++) engine.onStep(everyDetectorStep(agents + a, s), position);
for (let a = 0; a < 50; a++) engine.forgetAgent(everyDetectorStep(agents + a, 0).tenantId, `agent-${agents + a}`);
const before = retained();
let deviations = 0;
for (let s = 0; s < steps; s++) for (let a = 0; a < agents; a++) deviations += engine.onStep(parsed(a, s, new Date(Date.now() + s).toISOString()), position).length;
const after = retained();
if (snapshotDir) require('node:v8').writeHeapSnapshot(require('node:path').join(snapshotDir, `state-memory-${Date.now()}.heapsnapshot`));
process.stdout.write(`${agents} agents × ${steps} steps${uniqueGoals ? ' (unique goals)' : ''}: ${((after - before) / 1e6).toFixed(1)} MB added, ${Math.round((after - before) / agents)} B/agent, ${deviations} deviations (${engine.agentCount} agents held; retained ${(before / 1e6).toFixed(1)} -> ${(after / 1e6).toFixed(1)} MB)\n`);
