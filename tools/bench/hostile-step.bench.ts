/**
 * Detection cost of one hostile step (issue #29, "no input can hold the event loop"): the engine as the
 * detector worker builds it (balanced profile from a PolicyBook, hashing vectors, drift and the goal
 * checks), an agent with a goal and a plan, then hostile steps: args with 7,000 keys, 60 KiB of args, args
 * nested 5,000 deep, a 64 KiB assistant message and a 64 KiB observation with a 64 KiB error. All but the deep args pass the step contract (64 KiB of args,
 * 64 KiB texts, 64 levels); the deep ones reach the engine only where the contract is skipped (the engine
 * used as a library). Prints, per kind, the median (wall and CPU) and worst µs of one step's detection over `rounds`
 * steps (each a new step of the same agent), whether it passes the contract and whether it threw. Run with
 *   node bin/run-ts.js tools/bench/hostile-step.bench.ts [rounds]
 * The bounds it exercises are libs/domain/detection/src/step-bounds.ts (WAYFINDER_DETECTION_MAX_*).
 */
import { type JsonValue, StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder, hashingVectors } from '@wayfinder/embeddings';
import { DetectionEngine, DriftDetector, goalCheckDetectors, PolicyBook } from '@wayfinder/detection';

const rounds = Number(process.argv[2] ?? 30);

/** Args nested `depth` deep, parsed from their JSON text as the worker reads them (JSON.stringify of one overflows). */
function nested(depth: number): Record<string, JsonValue> {
  return JSON.parse(`${'{"w":"word","deeper":'.repeat(depth)}"rm -rf /tmp/x"${'}'.repeat(depth)}`) as Record<string, JsonValue>;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 997} `).join('');
// 7,000 keys of a one-digit value each: just under the contract's 64 KiB of args.
const manyKeys: Record<string, JsonValue> = Object.fromEntries(Array.from({ length: 7_000 }, (_, i) => [`k${i.toString(36)}`, i % 10]));
const hostile: Record<string, (round: number) => Pick<StepEvent, 'kind'> & Record<string, unknown>> = {
  'args with 7,000 keys': (r) => ({ kind: 'action', action: { tool: 'web_search', args: { ...manyKeys, round: r }, callId: `c${r}` } }),
  '60 KiB of args': (r) => ({ kind: 'action', action: { tool: 'web_search', args: { query: `${r} ${words(6_000)}` }, callId: `c${r}` } }),
  'args nested 5,000 deep': (r) => ({ kind: 'action', action: { tool: 'run_code', args: { round: r, code: nested(5_000) }, callId: `c${r}` } }),
  '64 KiB assistant message': (r) => ({ kind: 'message', message: { role: 'assistant', text: `${r} ${words(6_500)}` } }),
  '64 KiB observation and error': (r) => ({ kind: 'observation', observation: { tool: 'web_search', callId: `c${r}`, ok: false, content: words(6_500), error: `${r} ${words(6_500)}` } }),
};

const embedder = new HashingEmbedder();
const vectors = hashingVectors(embedder);
const policies = new PolicyBook();
const engine = new DetectionEngine({
  embedder,
  vectors,
  policyFor: (step) => policies.contextFor(step),
  extraDetectors: [new DriftDetector(vectors), ...goalCheckDetectors(embedder)],
});

const results: Record<string, { medianUs: number; medianCpuUs: number; maxUs: number; admissible: boolean; threw?: string }> = {};
let agent = 0;
for (const [name, make] of Object.entries(hostile)) {
  const agentId = `hostile-${agent++}`;
  let seq = 0;
  const step = (body: Record<string, unknown>): StepEvent =>
    ({ schema: 'wayfinder.step.v1', eventId: `${agentId}-${seq}`, tenantId: 'tenant-hostile', agentId, taskId: 'bench', runId: 'r1', seq: seq++, ts: new Date(1_700_000_000_000 + seq * 1000).toISOString(), ...body }) as StepEvent;
  engine.onStep(step({ kind: 'message', message: { role: 'user', text: 'Find the population of Lisbon in 1900 and write a short report with sources.' } }));
  engine.onStep(step({ kind: 'message', message: { role: 'assistant', text: '1. Search the census.\n2. Read the tables.\n3. Write the report.' } }));
  const times: number[] = [];
  // CPU time as well as wall time: on a shared machine the wall time also counts the other processes' turns.
  const cpuTimes: number[] = [];
  let threw: string | undefined;
  const admissible = StepEvent.safeParse(step(make(0))).success;
  for (let r = 0; r < rounds; r++) {
    const input = step(make(r));
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    try {
      engine.onStep(input);
    } catch (error) {
      threw = (error as Error).message.slice(0, 160);
    }
    const used = process.cpuUsage(cpu);
    times.push(Number(process.hrtime.bigint() - started) / 1_000);
    cpuTimes.push(used.user + used.system);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  results[name] = { medianUs: Math.round(times[Math.floor(times.length / 2)]), medianCpuUs: cpuTimes[Math.floor(cpuTimes.length / 2)], maxUs: Math.round(times[times.length - 1]), admissible, ...(threw && { threw }) };
}
process.stdout.write(`${JSON.stringify({ rounds, node: process.version, results }, null, 1)}\n`);
