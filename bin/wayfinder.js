#!/usr/bin/env node
// The `wayfinder` command (DESIGN §11). The CLI lives in apps/cli; this file only loads it from source.
const path = require('node:path');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(__dirname, '..', 'tsconfig.base.json');
require('@swc-node/register');
require('../apps/cli/src/main.ts');
