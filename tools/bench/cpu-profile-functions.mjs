#!/usr/bin/env node
/**
 * CPU of a `node --cpu-prof` profile by function (issue #17), per step with `--steps N`:
 *   --self                 self time of each function (default)
 *   --inclusive REGEX      time under each function whose "name file:line" matches REGEX (its callees included)
 *   --under REGEX          self time of the functions called, at any depth, from a function matching REGEX
 *   --by-caller NAME       self time of the function NAME, by the first frame above it from the project (libs/)
 *   node tools/bench/cpu-profile-functions.mjs PROFILE.cpuprofile [--steps N] [--top K] [mode]
 * Unlike cpu-profile-by-component.mjs it covers the whole profile (start-up included) and shares nothing.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const profile = JSON.parse(readFileSync(args[0], 'utf8'));
const steps = Number(opt('--steps') ?? 1);
const top = Number(opt('--top') ?? 30);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const name = (id) => {
  const f = byId.get(id).callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.replace(/.*\/(node_modules|libs|apps)\//, '$1/')}:${f.lineNumber}`;
};
const ancestors = function* (id) {
  for (let c = id; c !== undefined; c = parent.get(c)) yield c;
};

const totals = new Map();
const add = (key, t) => totals.set(key, (totals.get(key) ?? 0) + t);
if (opt('--inclusive')) {
  const rx = new RegExp(opt('--inclusive'));
  for (const [id, t] of self) {
    const seen = new Set();
    for (const a of ancestors(id)) {
      const k = name(a);
      if (rx.test(k) && !seen.has(k)) { seen.add(k); add(k, t); }
    }
  }
} else if (opt('--under')) {
  const rx = new RegExp(opt('--under'));
  for (const [id, t] of self) if ([...ancestors(id)].some((a) => rx.test(name(a)))) add(name(id), t);
} else if (opt('--by-caller')) {
  const fn = opt('--by-caller');
  for (const [id, t] of self) {
    if (byId.get(id).callFrame.functionName !== fn) continue;
    const caller = [...ancestors(parent.get(id))].find((a) => a !== undefined && byId.get(a).callFrame.url.includes('/libs/'));
    add(caller === undefined ? '(no project frame)' : name(caller), t);
  }
} else {
  for (const [id, t] of self) add(name(id), t);
}
for (const [k, t] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(t / steps).toFixed(2).padStart(8)} µs  ${k}`);
