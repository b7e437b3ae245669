/**
 * Detector throughput and state size (DESIGN §5.3, §7). Pre-parsed synthetic events from many agents
 * (mixed tools, repeats, errors, messages) go through the engine: tool-loop detectors only (`openclaw`
 * profile), and every detector the detector worker runs — the `balanced` profile with the hashing embedder
 * and the drift detector plugged in, each task on a map as the worker has it (`allDetectors*`, the headline
 * figure). The same without drift is reported beside it (`withoutDrift*`), measured in the same run, so the
 * cost of drift reads as a ratio. State size is the heap growth per agent after each of `stateAgents` agents
 * has run a realistic prefix of steps, on the worker's engine (with drift). The state codec
 * (what the detector worker writes to Redis after every batch) is timed per agent on `codecAgents` agents
 * after the same prefix, on an engine with the drift detector plugged in as the worker has it.
 * Wired into `wayfinder bench detectors`; run alone with
 *   node --expose-gc bin/run-ts.js libs/domain/detection/bench/run-bench.ts
 */
import type { CognitiveMap, Position, StepEvent } from '@wayfinder/contracts';
import { parseTask } from '@wayfinder/cognitive-map';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectionEngine } from '../src/detection.engine';
import { DriftDetector } from '../src/drift';
import { PROFILES } from '../src/policy/profiles';

export interface DetectorBenchOptions {
  /** Events per throughput run (default 200,000). */
  events?: number;
  /** Concurrent agents in the throughput runs (default 1,000). */
  agents?: number;
  /** Agents for the state-size measurement (default 100,000). */
  stateAgents?: number;
  /** Steps applied to each agent before measuring its state (default 40). */
  stepsPerStateAgent?: number;
  /** Agents whose state is encoded and decoded for the codec figures (default 10,000, at most stateAgents). */
  codecAgents?: number;
}

export interface DetectorBenchResult {
  /** Median of three timed passes after a warm-up pass. */
  toolLoopEventsPerSec: number;
  /** Every detector the worker runs: balanced profile, hashing embedder, drift, a map per task. */
  allDetectorsEventsPerSec: number;
  /** Slowest and fastest of the three passes. */
  toolLoopRange: [number, number];
  allDetectorsRange: [number, number];
  /** The same engine without the drift detector (what `allDetectors` measured before 2026-12-01). */
  withoutDriftEventsPerSec: number;
  /** State per agent on the worker's engine (with drift). */
  bytesPerAgent: number;
  withoutDriftBytesPerAgent: number;
  /** Per agent, median of three passes after a warm-up pass: exportAgentState, then importAgentState of its bytes. */
  stateEncodeMicros: number;
  stateDecodeMicros: number;
  /** Average size of an encoded agent state. */
  stateBytes: number;
  events: number;
  agents: number;
  stateAgents: number;
}

const TOOLS = ['web_search', 'read_file', 'python', 'command_status', 'visit_page', 'list_dir'];
const QUERIES = ['quarterly revenue acme', 'acme revenue last quarter', 'install package', 'open issue 42', 'latest release notes'];

/** Deterministic synthetic steps: agent `a` at step `i`. */
export function syntheticStep(agent: number, i: number): StepEvent {
  const base = {
    schema: 'wayfinder.step.v1' as const,
    eventId: `a${agent}-e${i}`,
    tenantId: `t${agent % 7}`,
    agentId: `agent-${agent}`,
    taskId: `task-${agent}`,
    runId: 'r1',
    seq: i,
    ts: '2026-01-01T00:00:00.000Z',
  };
  const call = i >> 1;
  const r = (agent * 31 + call * 17) % 97;
  const tool = TOOLS[r % TOOLS.length];
  if (i % 10 === 9) {
    return { ...base, kind: 'message', message: { role: 'assistant', text: `Step ${call}: checked ${QUERIES[r % QUERIES.length]}, next I will look at the results.` } };
  }
  if (i % 2 === 0) {
    const args: Record<string, string | number> = tool === 'python' ? { code: `print(load('${r % 11}').head(${call % 5}))` } : { query: QUERIES[(r + call) % QUERIES.length], page: call % 3 };
    return { ...base, kind: 'action', action: { tool, args, callId: `c${call}` } };
  }
  const ok = r % 9 !== 0;
  return ok
    ? { ...base, kind: 'observation', observation: { callId: `c${call}`, tool, ok, content: `result ${r % 13} for ${QUERIES[r % QUERIES.length]} at 10:42:0${call % 10}` } }
    : { ...base, kind: 'observation', observation: { callId: `c${call}`, tool, ok, error: `timeout after ${r} ms` } };
}

/** The map every synthetic task is on (the worker reads each task's map from the map store). */
function benchMap(): CognitiveMap {
  const parsed = parseTask({
    schema: 'wayfinder.task.v1',
    eventId: 'bench-task',
    tenantId: 't0',
    ts: '2026-01-01T00:00:00.000Z',
    taskId: 'bench',
    goal: 'Find the quarterly revenue of acme, then install the package and open issue 42, then read the latest release notes',
  });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function throughput(events: StepEvent[], engine: DetectionEngine, position?: Position): number {
  const start = process.hrtime.bigint();
  for (const e of events) engine.onStep(e, position);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return Math.round(events.length / seconds);
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect) {
    collect();
    collect();
  }
}

export function runDetectorBench(options: DetectorBenchOptions = {}): DetectorBenchResult {
  const total = options.events ?? 200_000;
  const agents = options.agents ?? 1_000;
  const stateAgents = options.stateAgents ?? 100_000;
  const steps = options.stepsPerStateAgent ?? 40;
  const perAgent = Math.ceil(total / agents);
  const events: StepEvent[] = [];
  for (let i = 0; i < perAgent; i++) for (let a = 0; a < agents; a++) events.push(syntheticStep(a, i));

  const toolLoopPolicy = PROFILES.openclaw;
  const allPolicy = PROFILES.balanced;
  // Steady state, as a long-running worker sees it: one full untimed pass per variant so the JIT has
  // compiled the hot path (a 20k-event warm-up still measured the optimizing compiler), then the median
  // of three timed passes, each on a fresh engine.
  const map = benchMap();
  // The worker hands drift each step's localized position; here every agent is on the map's first milestone.
  const position: Position = { milestoneId: map.milestones[0].id, completed: [], progress: 0, confidence: 1, method: 'signal' };
  const measure = (engine: () => DetectionEngine, at?: Position) => {
    throughput(events, engine(), at);
    const runs = [throughput(events, engine(), at), throughput(events, engine(), at), throughput(events, engine(), at)].sort((a, b) => a - b);
    return { median: runs[1], min: runs[0], max: runs[2] };
  };
  const toolLoop = measure(() => new DetectionEngine({ policyFor: () => ({ policy: toolLoopPolicy }) }));
  const withoutDrift = measure(() => new DetectionEngine({ policyFor: () => ({ policy: allPolicy }) }));
  const all = measure(() => workerEngine(allPolicy, map), position);
  events.length = 0;

  const stateBytes = (engine: DetectionEngine, at?: Position) => {
    gc();
    const before = process.memoryUsage();
    for (let a = 0; a < stateAgents; a++) for (let i = 0; i < steps; i++) engine.onStep(syntheticStep(a, i), at);
    gc();
    const after = process.memoryUsage();
    const bytes = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    return Math.round(bytes / Math.max(1, engine.agentCount));
  };
  const withoutDriftBytesPerAgent = stateBytes(new DetectionEngine({ policyFor: () => ({ policy: allPolicy }) }));
  const bytesPerAgent = stateBytes(workerEngine(allPolicy, map), position);
  const codec = measureCodec(Math.min(options.codecAgents ?? 10_000, stateAgents), steps);
  return {
    toolLoopEventsPerSec: toolLoop.median,
    allDetectorsEventsPerSec: all.median,
    toolLoopRange: [toolLoop.min, toolLoop.max],
    allDetectorsRange: [all.min, all.max],
    withoutDriftEventsPerSec: withoutDrift.median,
    bytesPerAgent,
    withoutDriftBytesPerAgent,
    ...codec,
    events: perAgent * agents,
    agents,
    stateAgents,
  };
}

/** The detector worker's engine: every detector, the drift detector plugged in, the task's map in the context. */
function workerEngine(policy: (typeof PROFILES)['balanced'], map: CognitiveMap): DetectionEngine {
  const embedder = new HashingEmbedder();
  return new DetectionEngine({ embedder, policyFor: () => ({ policy, map }), extraDetectors: [new DriftDetector(embedder)] });
}

/** Encode and decode time per agent and encoded size, as the detector worker pays them per touched agent. */
function measureCodec(agents: number, steps: number): Pick<DetectorBenchResult, 'stateEncodeMicros' | 'stateDecodeMicros' | 'stateBytes'> {
  const policy = PROFILES.balanced;
  const engine = () => new DetectionEngine({ policyFor: () => ({ policy }), extraDetectors: [new DriftDetector(new HashingEmbedder())] });
  const source = engine();
  const refs: { tenantId: string; agentId: string }[] = [];
  for (let a = 0; a < agents; a++) {
    for (let i = 0; i < steps; i++) source.onStep(syntheticStep(a, i));
    const step = syntheticStep(a, 0);
    refs.push({ tenantId: step.tenantId, agentId: step.agentId });
  }
  const states: Uint8Array[] = new Array(refs.length);
  const encodePass = () => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < refs.length; i++) states[i] = source.exportAgentState(refs[i].tenantId, refs[i].agentId) as Uint8Array;
    return Number(process.hrtime.bigint() - start) / 1e3 / Math.max(1, refs.length);
  };
  const decodePass = () => {
    const target = engine();
    const start = process.hrtime.bigint();
    for (let i = 0; i < refs.length; i++) target.importAgentState(refs[i].tenantId, refs[i].agentId, states[i]);
    return Number(process.hrtime.bigint() - start) / 1e3 / Math.max(1, refs.length);
  };
  const median = (pass: () => number) => {
    pass();
    return [pass(), pass(), pass()].sort((a, b) => a - b)[1];
  };
  const stateEncodeMicros = median(encodePass);
  const stateDecodeMicros = median(decodePass);
  let total = 0;
  for (const state of states) total += state.length;
  const round2 = (x: number) => Math.round(x * 100) / 100;
  return { stateEncodeMicros: round2(stateEncodeMicros), stateDecodeMicros: round2(stateDecodeMicros), stateBytes: Math.round(total / Math.max(1, states.length)) };
}
