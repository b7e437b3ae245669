/**
 * The correction-engine service alone, one process (DESIGN §3 "distributed"): the same as
 * `wayfinder start --mode distributed --services correction-engine`. Run: node bin/run-ts.js apps/correction-engine/src/main.ts
 */
import { runServiceMain } from '@wayfinder/service-runtime';

runServiceMain('correction-engine');
