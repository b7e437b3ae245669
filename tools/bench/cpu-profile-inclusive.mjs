#!/usr/bin/env node
/**
 * Inclusive CPU per step of a `node --cpu-prof` profile by group (issue #28): a sample counts for a group
 * when any frame of its stack is in the group's files, so a group's figure includes the libraries it calls
 * synchronously (ioredis, the Kafka producer); groups overlap where one calls into another.
 *   node tools/bench/cpu-profile-inclusive.mjs PROFILE.cpuprofile STEPS
 */
import { readFileSync } from 'node:fs';
const [file, steps] = [process.argv[2], Number(process.argv[3])];
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const groups = {
  'history (recorder + store)': (u) => u.includes('services/operations') || u.includes('redis-history') || u.includes('domain/history'),
  'memory (service + stores)': (u) => u.includes('services/memory') || u.includes('domain/memory') || u.includes('redis-working-memory'),
  'navigation (navigator + handler + engines)': (u) => u.includes('services/navigator') || u.includes('domain/navigation') || u.includes('domain/detection') || u.includes('domain/correction') || u.includes('domain/cognitive-map') || u.includes('services/state-localizer') || u.includes('services/detector-worker') || u.includes('services/correction-engine'),
};
const memo = new Map();
function tags(id) {
  if (memo.has(id)) return memo.get(id);
  const n = byId.get(id); const set = new Set(parent.has(id) ? tags(parent.get(id)) : []);
  for (const [g, t] of Object.entries(groups)) if (t(n.callFrame.url)) set.add(g);
  memo.set(id, set); return set;
}
const totals = {}; let busy = 0;
const dts = p.timeDeltas;
p.samples.forEach((id, i) => {
  const n = byId.get(id); const dt = dts[i] ?? 0;
  if (n.callFrame.functionName === '(idle)') return;
  busy += dt;
  for (const g of tags(id)) totals[g] = (totals[g] ?? 0) + dt;
});
console.log(`busy ${(busy / steps).toFixed(1)} µs/step`);
for (const [g, t] of Object.entries(totals)) console.log(`${g}: ${(t / steps).toFixed(1)} µs/step inclusive (${(100 * t / busy).toFixed(1)}%)`);
