// Shared Jest settings: @swc/jest transpiles TypeScript (with decorator metadata for Nest) and the
// tsconfig path aliases map to sources, so tests run without a build step. Type-checking is `npm run typecheck`.
const { pathsToModuleNameMapper } = require('./tools/jest/paths');
const tsconfig = require('./tsconfig.base.json');

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/deploy'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: pathsToModuleNameMapper(tsconfig.compilerOptions.paths, '<rootDir>/'),
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/fixtures/'],
  setupFiles: ['<rootDir>/tools/jest/fast-check-seed.js'],
};
