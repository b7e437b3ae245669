/**
 * The gateway alone, one process (DESIGN §12): the same as `wayfinder start --mode distributed
 * --services gateway` (WAYFINDER_GATEWAY_PORT, default 7070; WAYFINDER_GATEWAY_HOST). The HTTP contract
 * is apps/gateway/API.md. Run: node bin/run-ts.js apps/gateway/src/main.ts
 */
import { runServiceMain } from '@wayfinder/service-runtime';

runServiceMain('gateway');
