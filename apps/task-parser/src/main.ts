/**
 * The task-parser service alone, one process (DESIGN §3 "distributed"): the same as
 * `wayfinder start --mode distributed --services task-parser`. Run: node bin/run-ts.js apps/task-parser/src/main.ts
 */
import { runServiceMain } from '@wayfinder/service-runtime';

runServiceMain('task-parser');
