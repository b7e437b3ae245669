#!/usr/bin/env node
/**
 * CPU of a `node --cpu-prof` profile by pipeline component (issue #17): each sample's time goes to the
 * component of the function it was in, or, for functions of no component (builtins, node internals), to
 * the nearest caller that has one. JSON.parse/stringify are a component of their own wherever they are
 * called from. Prints each component's share and, with `--steps N`, µs of CPU per step over the profile.
 * `--window FUNCTION` keeps only the samples between the first and the last whose stack holds FUNCTION
 * (e.g. onSteps: from the first steps batch to the last), so start-up and idle tails do not count.
 *   node tools/bench/cpu-profile-by-component.mjs PROFILE.cpuprofile [--steps N] [--from S --to S] [--window FUNCTION]
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args[0];
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : undefined; };
const steps = opt('--steps');
const profile = JSON.parse(readFileSync(file, 'utf8'));

const RULES = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['gc', (f) => f.functionName === '(garbage collector)'],
  ['JSON', (f) => !f.url && /^(parse|stringify|JSON\.parse|JSON\.stringify)$/.test(f.functionName)],
  ['kafka client (kafkajs)', (f) => f.url.includes('node_modules/kafkajs')],
  ['zod validation', (f) => f.url.includes('node_modules/zod') || f.url.includes('libs/contracts')],
  ['redis (ioredis + stores)', (f) => f.url.includes('node_modules/ioredis') || f.url.includes('node_modules/redis-parser') || f.url.includes('libs/platform/redis')],
  ['telemetry (otel + metrics)', (f) => f.url.includes('@opentelemetry') || f.url.includes('libs/platform/telemetry')],
  ['nest + rxjs', (f) => f.url.includes('node_modules/@nestjs') || f.url.includes('node_modules/rxjs')],
  ['localizer', (f) => f.url.includes('libs/domain/cognitive-map') || f.url.includes('services/state-localizer')],
  ['detector', (f) => f.url.includes('libs/domain/detection') || f.url.includes('libs/domain/embeddings') || f.url.includes('services/detector-worker')],
  ['correction engine', (f) => f.url.includes('libs/domain/correction') || f.url.includes('libs/domain/navigation') || f.url.includes('services/correction-engine')],
  ['memory service', (f) => f.url.includes('libs/domain/memory') || f.url.includes('services/memory')],
  ['durable agent state', (f) => f.url.includes('services/core')],
  ['bus adapter (codec, delivery, co-located readers)', (f) => f.url.includes('libs/platform/bus') || f.url.includes('services/runtime/src/co-located')],
  ['module loading (swc, startup)', (f) => f.url.includes('@swc') || f.url.includes('node:internal/modules') || f.url.includes('internal/modules')],
];

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const own = (n) => { for (const [name, test] of RULES) if (test(n.callFrame)) return name; return undefined; };
const memo = new Map();
function componentOf(id) {
  if (memo.has(id)) return memo.get(id);
  const n = byId.get(id);
  let c = own(n);
  if (!c) {
    const p = parent.get(id);
    c = p === undefined ? (n.callFrame.functionName === '(program)' ? 'program (native, unattributed)' : 'other') : componentOf(p);
    if (c === 'other' && n.callFrame.url.startsWith('node:')) c = 'node internals (sockets, timers, streams)';
    if (c === 'other' && n.callFrame.functionName === '(program)') c = 'program (native, unattributed)';
  }
  memo.set(id, c);
  return c;
}

const totals = new Map();
let from = opt('--from'), to = opt('--to');
const windowFn = args.includes('--window') ? args[args.indexOf('--window') + 1] : undefined;
if (windowFn) {
  const holds = new Map();
  const hasFn = (id) => {
    if (holds.has(id)) return holds.get(id);
    const n = byId.get(id);
    const p = parent.get(id);
    const r = n.callFrame.functionName === windowFn || (p !== undefined && hasFn(p));
    holds.set(id, r);
    return r;
  };
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (!hasFn(id)) return;
    const s = (at - profile.startTime) / 1e6;
    if (from === undefined || s < from) from = s;
    if (to === undefined || s > to) to = s;
  });
}
let t = profile.startTime;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  t += dt;
  const s = (t - profile.startTime) / 1e6;
  if ((from !== undefined && s < from) || (to !== undefined && s > to)) return;
  const c = componentOf(id);
  totals.set(c, (totals.get(c) ?? 0) + dt);
});
const busy = [...totals].filter(([c]) => c !== 'idle').reduce((a, [, v]) => a + v, 0);
console.log(`profile ${file}${from !== undefined ? ` (${from.toFixed(1)}–${to.toFixed(1)} s)` : ''}: ${(busy / 1e6).toFixed(2)} s busy${steps ? `, ${steps} steps: ${(busy / steps).toFixed(1)} µs/step` : ''}`);
for (const [c, v] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (c === 'idle') continue;
  console.log(`${c.padEnd(44)} ${((100 * v) / busy).toFixed(1).padStart(5)}%${steps ? `  ${(v / steps).toFixed(1).padStart(6)} µs/step` : ''}`);
}
