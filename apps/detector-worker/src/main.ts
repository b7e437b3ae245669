/**
 * The detector-worker service alone, one process (DESIGN §3 "distributed"): the same as
 * `wayfinder start --mode distributed --services detector-worker`. Run: node bin/run-ts.js apps/detector-worker/src/main.ts
 */
import { runServiceMain } from '@wayfinder/service-runtime';

runServiceMain('detector-worker');
