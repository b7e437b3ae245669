// Lint = typescript-eslint's recommended rules plus Nx module boundaries (DESIGN §10): domain libs import
// only domain libs and contracts, and no framework or I/O package. A violation fails `npm test`.
import nx from '@nx/eslint-plugin';

const FRAMEWORK_AND_IO = [
  '@nestjs/*',
  'kafkajs',
  'ioredis',
  '@qdrant/*',
  '@opentelemetry/*',
  'express',
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'net',
  'node:net',
  'http',
  'node:http',
  'child_process',
  'node:child_process',
];

/** Node's I/O modules: Nx bans npm packages only, so node built-ins are banned with ESLint's own rule. */
const NODE_IO = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'child_process', 'node:child_process', 'dgram', 'node:dgram'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/fixtures/**', 'tmp/**', '.nx/**'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:service', 'type:domain', 'type:platform', 'type:contracts', 'type:testing', 'type:sdk'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:service', 'type:domain', 'type:platform', 'type:contracts', 'type:testing'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:domain', 'type:contracts'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:contracts', 'type:sdk'] },
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform'] },
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'],
              bannedExternalImports: FRAMEWORK_AND_IO,
            },
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: ['type:contracts'],
              bannedExternalImports: FRAMEWORK_AND_IO,
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Domain libs and contracts are pure: no I/O in their sources (their tests may read fixtures).
    files: ['libs/domain/*/src/**/*.ts', 'libs/contracts/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.testing.ts', '**/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: NODE_IO.map((name) => ({ name, message: 'domain libs and contracts do no I/O (DESIGN §10)' })) }],
    },
  },
];
