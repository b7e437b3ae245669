/**
 * The state-localizer service alone, one process (DESIGN §3 "distributed"): the same as
 * `wayfinder start --mode distributed --services state-localizer`. Run: node bin/run-ts.js apps/state-localizer/src/main.ts
 */
import { runServiceMain } from '@wayfinder/service-runtime';

runServiceMain('state-localizer');
