#!/usr/bin/env node
// Compiles what `wayfinder --help` and `wayfinder <cmd> --help` run (apps/cli/src/main.ts and the modules
// it imports statically: the command table and the commands' help texts) to JavaScript with swc, so that
// bin/wayfinder.js can answer help without loading TypeScript at run time. Beside the output, a manifest
// holds the sha-256 of every source compiled: bin/wayfinder.js uses the output only while each source
// still has that hash, and otherwise runs from source as always. Help must stay light: a static import
// of a package or an @wayfinder alias from these modules fails the build (the CLI then runs from source).
// Usage: node apps/cli/scripts/build-help.mjs [OUT_DIR] [--strict]   (default dist/cli-help; run by postinstall,
// where a failure only prints a line: the CLI works from source without it)
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const outArg = process.argv.slice(2).find((a) => !a.startsWith('--'));
const out = path.resolve(outArg ?? path.join(root, 'dist', 'cli-help'));

function build() {
  const swc = createRequire(import.meta.url)('@swc/core');
  const files = {};
  const pending = ['apps/cli/src/main.ts'];
  while (pending.length > 0) {
    const relative = pending.pop();
    if (relative in files) continue;
    const source = readFileSync(path.join(root, relative), 'utf8');
    files[relative] = createHash('sha256').update(source).digest('hex');
    // Static imports only: `import type` is erased, `import('…')` is a command loaded when it runs.
    for (const [, typeOnly, specifier] of source.matchAll(/^import (type )?[^;]*? from '([^']+)';/gms)) {
      if (typeOnly) continue;
      if (!specifier.startsWith('.')) throw new Error(`${relative} imports ${specifier}: help must load no package`);
      const base = path.join(path.dirname(relative), specifier);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(path.join(root, f)));
      if (!target) throw new Error(`${relative}: cannot find ${specifier}`);
      pending.push(target);
    }
    const { code } = swc.transformSync(source, {
      filename: relative,
      swcrc: false,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
      sourceMaps: false,
    });
    const js = path.join(out, relative.replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(js), { recursive: true });
    writeFileSync(js, code);
  }
  writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify({ files }, null, 2)}\n`);
  return Object.keys(files).length;
}

rmSync(out, { recursive: true, force: true });
try {
  process.stdout.write(`build-help: ${build()} modules in ${path.relative(root, out) || out}\n`);
} catch (error) {
  rmSync(out, { recursive: true, force: true });
  process.stderr.write(`build-help: not built (wayfinder --help runs from source): ${error.message}\n`);
  process.exitCode = process.argv.includes('--strict') ? 1 : 0;
}
