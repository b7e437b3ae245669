/**
 * The memory-service service alone, one process (DESIGN §3 "distributed"): the same as
 * `wayfinder start --mode distributed --services memory-service`. Run: node bin/run-ts.js apps/memory-service/src/main.ts
 */
import { runServiceMain } from '@wayfinder/service-runtime';

runServiceMain('memory-service');
