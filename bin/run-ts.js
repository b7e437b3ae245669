#!/usr/bin/env node
// Runs a TypeScript entry point from source: @swc-node/register compiles on the fly (with decorator
// metadata for Nest) and resolves the tsconfig path aliases, so there is no build step to forget.
const path = require('node:path');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(__dirname, '..', 'tsconfig.base.json');
require('@swc-node/register');
const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: run-ts.js FILE.ts [args…]\n');
  process.exit(2);
}
process.argv.splice(1, 1);
require(path.resolve(entry));
