#!/usr/bin/env node
// Builds @wayfinder/sdk into dist/sdk as a standalone npm package: tsc writes the .d.ts of the SDK and
// of the contracts and domain libs it imports (under lib/) without type-checking them again (--noCheck:
// `npm run typecheck` is what checks the code, and checking here took most of the build), swc compiles
// each of those modules to CommonJS beside its .d.ts, the `@wayfinder/*` path aliases
// are rewritten to relative paths (so nothing outside the package is needed), an ESM wrapper re-exports
// each entry's names, and package.json declares zod and re2js (the tenants' regexes run with RE2 semantics) as its dependencies (kafkajs, @langchain/core and
// ai are optional peers, loaded only by the Kafka transport and the adapters).
// Usage: node libs/sdk/scripts/build-package.mjs [--pack]  (--pack also runs npm pack into dist/)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const out = path.join(root, 'dist', 'sdk');
const lib = path.join(out, 'lib');
const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const versionOf = (name) => JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** Public entry points: subpath → module under libs/ (without extension). */
const ENTRIES = {
  '.': 'sdk/src/index',
  './langchain': 'sdk/src/adapters/langchain/index',
  './ai': 'sdk/src/adapters/ai-sdk/index',
};

rmSync(out, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'libs', 'sdk', 'tsconfig.build.json'), '--emitDeclarationOnly', '--noCheck'], {
  stdio: 'inherit',
});
if (tsc.status !== 0) {
  process.stderr.write('build-package: tsc failed\n');
  process.exit(1);
}
// The JavaScript of every module tsc declared: libs/<m>.ts → lib/<m>.js (CommonJS, helpers inlined, so
// the package needs no @swc/helpers).
const swc = createRequire(import.meta.url)('@swc/core');
const declared = [];
(function walk(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full);
    else if (entry.endsWith('.d.ts')) declared.push(full);
  }
})(lib);
for (const declaration of declared) {
  const source = path.join(root, 'libs', path.relative(lib, declaration).replace(/\.d\.ts$/, '.ts'));
  const { code } = swc.transformFileSync(source, {
    swcrc: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', externalHelpers: false, keepClassNames: true },
    module: { type: 'commonjs' },
    sourceMaps: false,
  });
  writeFileSync(declaration.replace(/\.d\.ts$/, '.js'), code);
}

// `@wayfinder/x` → the compiled file of its alias target, relative to the importing file.
const aliases = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;
const targets = Object.fromEntries(
  Object.entries(aliases).map(([name, [target]]) => [name, path.join(lib, path.relative('libs', target).replace(/\.ts$/, ''))]),
);
const files = [];
(function walk(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.(js|d\.ts)$/.test(entry)) files.push(full);
  }
})(lib);
const unresolved = new Set();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(/(require\(|from |import\()(["'])(@wayfinder\/[^"']+)\2/g, (match, lead, quote, name) => {
    const target = targets[name];
    if (!target) {
      unresolved.add(name);
      return match;
    }
    let relative = path.relative(path.dirname(file), target).split(path.sep).join('/');
    if (!relative.startsWith('.')) relative = `./${relative}`;
    return `${lead}${quote}${relative}${quote}`;
  });
  if (rewritten !== text) writeFileSync(file, rewritten);
}
if (unresolved.size > 0) {
  process.stderr.write(`build-package: no alias for ${[...unresolved].join(', ')}\n`);
  process.exit(1);
}

// ESM wrappers: Node's ESM loader cannot see the names of tsc's re-exports, so list them.
const require = createRequire(import.meta.url);
const exportsField = {};
for (const [subpath, module] of Object.entries(ENTRIES)) {
  const cjs = `./lib/${module}.js`;
  const names = Object.keys(require(path.join(out, cjs))).filter((n) => n !== 'default' && n !== '__esModule');
  const esm = `./${subpath === '.' ? 'index' : subpath.slice(2)}.mjs`;
  writeFileSync(
    path.join(out, esm),
    `// ESM entry: re-exports the CommonJS build.\nimport cjs from '${cjs}';\n\nexport const { ${names.join(', ')} } = cjs;\nexport default cjs;\n`,
  );
  exportsField[subpath] = { types: `./lib/${module}.d.ts`, import: esm, require: cjs };
}

const packageJson = {
  name: '@wayfinder/sdk',
  version: rootPackage.version,
  description: 'Connect LLM agents to Wayfinder: publish steps, receive corrections, or guard an agent in process.',
  license: rootPackage.license,
  engines: rootPackage.engines,
  main: `./lib/${ENTRIES['.']}.js`,
  types: `./lib/${ENTRIES['.']}.d.ts`,
  exports: exportsField,
  files: ['lib', '*.mjs', 'README.md'],
  sideEffects: false,
  dependencies: { zod: versionOf('zod'), 're2js': versionOf('re2js') },
  peerDependencies: { kafkajs: `^${versionOf('kafkajs')}`, '@langchain/core': `^${versionOf('@langchain/core')}`, ai: `^${versionOf('ai')}` },
  peerDependenciesMeta: { kafkajs: { optional: true }, '@langchain/core': { optional: true }, ai: { optional: true } },
};
writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
copyFileSync(path.join(root, 'libs', 'sdk', 'README.md'), path.join(out, 'README.md'));
process.stdout.write(`build-package: ${files.length} files in ${path.relative(root, out)}\n`);

if (process.argv.includes('--pack')) {
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  const pack = spawnSync('npm', ['pack', out, '--pack-destination', path.join(root, 'dist')], { stdio: 'inherit' });
  process.exit(pack.status ?? 1);
}
