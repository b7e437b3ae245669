/**
 * The module boundaries of DESIGN §10 are enforced by lint, not hoped for: a domain lib that imports a
 * framework or I/O package fails. ESLint lints the code from stdin as if it were a file of the lib, so
 * nothing is written to the tree.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');

function boundaryErrors(filePath: string, code: string): string[] {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', filePath, '--format', 'json'], {
    cwd: root,
    input: code,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  const [report] = JSON.parse(result.stdout) as Array<{ messages: Array<{ ruleId: string; message: string }> }>;
  return report.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('module boundaries', () => {
  beforeAll(() => {
    // The Nx rule reads the cached project graph and skips itself without one (a fresh clone before
    // any nx command): compute it first, so this spec does not depend on lint having run before it.
    const graph = spawnSync(process.execPath, [join(root, 'node_modules/nx/bin/nx.js'), 'show', 'projects'], { cwd: root, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } });
    if (graph.status !== 0) throw new Error(`nx could not compute the project graph:\n${graph.stderr}`);
  }, 120_000);

  it('fail a domain lib that imports @nestjs/common, kafkajs, ioredis or node:fs', () => {
    const code = [
      "import { Injectable } from '@nestjs/common';",
      "import { Kafka } from 'kafkajs';",
      "import Redis from 'ioredis';",
      "import { readFileSync } from 'node:fs';",
      'export const x = [Injectable, Kafka, Redis, readFileSync];',
      '',
    ].join('\n');
    const errors = boundaryErrors('libs/domain/detection/src/boundary-fixture.ts', code);
    for (const pkg of ['@nestjs/common', 'kafkajs', 'ioredis']) {
      expect(errors).toContainEqual(expect.stringContaining(`not allowed to import "${pkg}"`));
    }
    expect(errors).toContainEqual(expect.stringContaining("'node:fs' import is restricted"));
    expect(errors).toHaveLength(4);
  });

  it('let a service import @nestjs/common and domain libs', () => {
    const code = "import { Injectable } from '@nestjs/common';\nimport { DetectionEngine } from '@wayfinder/detection';\nexport const x = [Injectable, DetectionEngine];\n";
    expect(boundaryErrors('libs/services/detector-worker/src/boundary-fixture.ts', code)).toEqual([]);
  });
});
