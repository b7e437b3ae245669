/**
 * The embedders benchmark (DESIGN §5.6; a tool, not a product command): what each embedder choice costs. For each choice (hashing
 * everywhere; minilm or bge-zh for drift, semantic_repetition and monologue, tool arguments on hashing)
 * the detection engine with drift runs over the same synthetic fleet the way the detector worker does:
 * per batch, prefetch the texts (async, batched, per-agent cache), then the detectors synchronously.
 * Reports detector events/s with each choice and µs per embedded text for each embedder. One thread
 * for onnxruntime, as the worker runs it. Needs the model files (npm run models:fetch); a choice whose
 * files are absent is skipped, saying so.
 *
 * Run: node bin/run-ts.js tools/bench/embedders-bench.ts [--events N (3000)] [--agents N (100)] [--batch N (200)]
 * Prints one JSON object.
 */
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import type { EmbedderName, PolicySettings, StepEvent } from '@wayfinder/contracts';
import { DetectionEngine, DriftDetector, PROFILES } from '@wayfinder/detection';
import { EmbeddingCache, HashingEmbedder, type Embedder } from '@wayfinder/embeddings';
import { defaultModelsDir, findModelFiles, MODEL_SPECS, OnnxEmbedder, type SemanticEmbedderName } from '@wayfinder/onnx-embedders';

export interface EmbeddersBenchOptions {
  /** Events per run (default 3000). */
  events: number;
  /** Agents the events are spread over (default 100). */
  agents: number;
  /** Events per batch, as the worker receives them (default 200). */
  batch: number;
}

export interface ChoiceResult {
  choice: string;
  served: EmbedderName;
  eventsPerSec: number;
  /** Texts the semantic embedder embedded during the run (cache misses), and µs of embedding per event. */
  textsEmbedded: number;
  cacheHits: number;
}

const TOPICS = ['quarterly revenue of ACME', 'the open issue about the parser', 'the release notes of version 2', 'population of Lisbon in 1900', 'the cheapest flight to Oslo'];
const VERBS = ['Next I will check', 'I still need to verify', 'Let me look again at', 'The results say little about', 'I will now search for'];

/** Deterministic synthetic steps with varied wording (every message and query is a new text). */
export function fleetStep(agent: number, i: number): StepEvent {
  const base = { schema: 'wayfinder.step.v1' as const, eventId: `a${agent}-e${i}`, tenantId: `t${agent % 5}`, agentId: `agent-${agent}`, taskId: `task-${agent}`, runId: 'r1', seq: i, ts: '2026-01-01T00:00:00.000Z' };
  const topic = TOPICS[(agent + (i >> 3)) % TOPICS.length];
  if (i === 0) return { ...base, kind: 'message', message: { role: 'user', text: `Find ${topic} and write a short report with sources.` } };
  if (i % 4 === 3) return { ...base, kind: 'message', message: { role: 'assistant', text: `${VERBS[(agent * 7 + i) % VERBS.length]} ${topic}; step ${i} of the plan, source ${(agent * 13 + i) % 17}.` } };
  const call = i >> 1;
  if (i % 2 === 1) return { ...base, kind: 'action', action: { tool: 'web_search', args: { query: `${topic} ${call % 9} site ${(agent + call) % 4}` }, callId: `c${call}` } };
  return { ...base, kind: 'observation', observation: { callId: `c${call - 1}`, tool: 'web_search', ok: true, content: `Result ${call % 7}: a page about ${topic} (${(agent * 3 + call) % 11} links)` } };
}

async function runChoice(events: StepEvent[], policy: PolicySettings, cache: EmbeddingCache, batch: number): Promise<{ eventsPerSec: number; embedded: number; hits: number }> {
  const engine = new DetectionEngine({ vectors: cache, policyFor: () => ({ policy }), extraDetectors: [new DriftDetector(cache)] });
  const before = cache.stats;
  const start = process.hrtime.bigint();
  for (let i = 0; i < events.length; i += batch) {
    const slice = events.slice(i, i + batch);
    // As the detector worker does: no texts are listed when only hashing is loaded.
    if (cache.embedsAhead) {
      const requests = slice.flatMap((e) => engine.textsFor(e));
      if (requests.length > 0) await cache.prefetch(requests);
    }
    for (const e of slice) engine.onStep(e);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const after = cache.stats;
  if (after.misses !== before.misses) throw new Error(`${after.misses - before.misses} vectors were read without a prefetch`);
  return { eventsPerSec: Math.round(events.length / seconds), embedded: after.embedded - before.embedded, hits: after.hits - before.hits };
}

/** µs per text, embedding `texts` one call of `batch` at a time (median of three passes after one warm-up). */
async function microsPerText(embedder: Embedder, texts: string[], batch = 32): Promise<number> {
  const pass = async () => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < texts.length; i += batch) await embedder.embed(texts.slice(i, i + batch));
    return Number(process.hrtime.bigint() - start) / 1e3 / texts.length;
  };
  await pass();
  const runs = [await pass(), await pass(), await pass()].sort((a, b) => a - b);
  return Math.round(runs[1] * 10) / 10;
}

export async function runEmbeddersBench(options: EmbeddersBenchOptions, log: (line: string) => void) {
  const perAgent = Math.ceil(options.events / options.agents);
  const events: StepEvent[] = [];
  for (let i = 0; i < perAgent; i++) for (let a = 0; a < options.agents; a++) events.push(fleetStep(a, i));
  const hashing = new HashingEmbedder();
  const modelsDir = defaultModelsDir();
  const models: OnnxEmbedder[] = [];
  const absent: string[] = [];
  for (const name of ['minilm', 'bge-zh'] as SemanticEmbedderName[]) {
    const files = findModelFiles(name, modelsDir);
    if (files) models.push(await OnnxEmbedder.load(MODEL_SPECS[name], files));
    else absent.push(name);
  }
  if (absent.length > 0) log(`model files absent for ${absent.join(', ')} in ${modelsDir} (npm run models:fetch): those choices are not measured`);

  const texts = [...new Set(events.flatMap((e) => (e.kind === 'message' ? [e.message.text] : e.kind === 'action' ? [JSON.stringify(e.action.args)] : [])))].slice(0, 300);
  const perText: Record<string, number> = { hashing: await microsPerText(hashing, texts) };
  for (const model of models) {
    log(`timing ${model.name} on ${texts.length} texts`);
    perText[model.name] = await microsPerText(model, texts);
  }

  const choices: ChoiceResult[] = [];
  for (const name of ['hashing', ...models.map((m) => m.name)] as EmbedderName[]) {
    const policy: PolicySettings = { ...PROFILES.balanced, embedders: { ...PROFILES.balanced.embedders, drift: name, semanticRepetition: name, monologue: name } };
    const runs: { eventsPerSec: number; embedded: number; hits: number }[] = [];
    // A fresh cache per pass: every text of the run is embedded once (a cold cache, the worst case).
    const passes = name === 'hashing' ? 5 : 3;
    // Hashing: one untimed pass first, so the JIT has compiled the hot path (the models' time dwarfs it).
    if (name === 'hashing') await runChoice(events, policy, new EmbeddingCache({ hashing }), options.batch);
    for (let p = 0; p < passes; p++) {
      const cache = new EmbeddingCache({ hashing, semantic: models.filter((m) => m.name === name) });
      runs.push(await runChoice(events, policy, cache, options.batch));
    }
    runs.sort((a, b) => a.eventsPerSec - b.eventsPerSec);
    const median = runs[Math.floor(runs.length / 2)];
    log(`${name}: ${median.eventsPerSec} events/s`);
    choices.push({ choice: name === 'hashing' ? 'hashing everywhere' : `${name} for drift, semantic_repetition, monologue`, served: name, eventsPerSec: median.eventsPerSec, textsEmbedded: median.embedded, cacheHits: median.hits });
  }
  for (const model of models) await model.release();
  const baseline = choices[0].eventsPerSec;
  return {
    events: events.length,
    agents: options.agents,
    batch: options.batch,
    microsPerText: perText,
    choices: choices.map((c) => ({ ...c, ratioToHashing: Math.round((c.eventsPerSec / baseline) * 10000) / 10000 })),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { events: { type: 'string' }, agents: { type: 'string' }, batch: { type: 'string' } } });
  const options = { events: Number(values.events ?? 3000), agents: Number(values.agents ?? 100), batch: Number(values.batch ?? 200) };
  const results = await runEmbeddersBench(options, (line) => process.stderr.write(`embedders-bench: ${line}\n`));
  const cpus = os.cpus();
  process.stdout.write(JSON.stringify({ ...results, options, node: process.version, cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length }) + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`embedders-bench: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
