#!/usr/bin/env node
// The `wayfinder` command (DESIGN §11). The CLI lives in apps/cli; this file loads it from source through
// @swc-node/register. Help (`wayfinder`, `--help`, `<cmd> --help`) is answered from dist/cli-help when it
// is there and every source it was compiled from still has the hash in its manifest (built by
// apps/cli/scripts/build-help.mjs at install): no TypeScript is loaded for it. Anything else, or a stale
// or missing build, runs from source. WAYFINDER_CLI_HELP_DIST=off (or a directory) says where to look.
const path = require('node:path');
const root = path.join(__dirname, '..');

function helpBuild() {
  const args = process.argv.slice(2);
  const asksHelp = args.length === 0 || ['--help', '-h', 'help'].includes(args[0]) || args.slice(1).some((a) => a === '--help' || a === '-h');
  const dir = process.env.WAYFINDER_CLI_HELP_DIST || path.join(root, 'dist', 'cli-help');
  if (!asksHelp || dir === 'off') return undefined;
  const fs = require('node:fs');
  const { createHash } = require('node:crypto');
  try {
    const { files } = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    for (const [file, hash] of Object.entries(files)) {
      if (createHash('sha256').update(fs.readFileSync(path.join(root, file), 'utf8')).digest('hex') !== hash) return undefined;
    }
    return path.join(dir, 'apps', 'cli', 'src', 'main.js');
  } catch {
    return undefined;
  }
}

const compiled = helpBuild();
if (compiled) {
  require(compiled);
} else {
  process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(root, 'tsconfig.base.json');
  require('@swc-node/register');
  require('../apps/cli/src/main.ts');
}
