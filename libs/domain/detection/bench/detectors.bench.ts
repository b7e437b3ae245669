/**
 * Detector throughput and state size (DESIGN §5.3, §7). Pre-parsed synthetic events from many agents
 * (mixed tools, repeats, errors, messages) go through the engine twice: tool-loop detectors only
 * (`openclaw` profile) and every detector with the hashing embedder (`balanced`). State size is the heap
 * growth per agent after each of `stateAgents` agents has run a realistic prefix of steps. The state codec
 * (what the detector worker writes to Redis after every batch) is timed per agent on `codecAgents` agents
 * after the same prefix, on an engine with the drift detector plugged in as the worker has it.
 * Wired into `wayfinder bench detectors`; run alone with
 *   node --expose-gc bin/run-ts.js libs/domain/detection/bench/run-bench.ts
 */
import type { StepEvent } from '@wayfinder/contracts';
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
  allDetectorsEventsPerSec: number;
  /** Slowest and fastest of the three passes. */
  toolLoopRange: [number, number];
  allDetectorsRange: [number, number];
  bytesPerAgent: number;
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

function throughput(events: StepEvent[], engine: DetectionEngine): number {
  const start = process.hrtime.bigint();
  for (const e of events) engine.onStep(e);
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
  const measure = (policy: typeof toolLoopPolicy) => {
    const engine = () => new DetectionEngine({ policyFor: () => ({ policy }) });
    throughput(events, engine());
    const runs = [throughput(events, engine()), throughput(events, engine()), throughput(events, engine())].sort((a, b) => a - b);
    return { median: runs[1], min: runs[0], max: runs[2] };
  };
  const toolLoop = measure(toolLoopPolicy);
  const all = measure(allPolicy);
  const toolLoopEventsPerSec = toolLoop.median;
  const allDetectorsEventsPerSec = all.median;
  events.length = 0;

  gc();
  const before = process.memoryUsage();
  const engine = new DetectionEngine({ policyFor: () => ({ policy: allPolicy }) });
  for (let a = 0; a < stateAgents; a++) for (let i = 0; i < steps; i++) engine.onStep(syntheticStep(a, i));
  gc();
  const after = process.memoryUsage();
  const bytes = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
  const bytesPerAgent = Math.round(bytes / Math.max(1, engine.agentCount));
  const codec = measureCodec(Math.min(options.codecAgents ?? 10_000, stateAgents), steps);
  return {
    toolLoopEventsPerSec,
    allDetectorsEventsPerSec,
    toolLoopRange: [toolLoop.min, toolLoop.max],
    allDetectorsRange: [all.min, all.max],
    bytesPerAgent,
    ...codec,
    events: perAgent * agents,
    agents,
    stateAgents,
  };
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
