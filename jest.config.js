// Two Jest projects: `unit` (*.spec.ts, pure and in-process) and `integration` (*.int-spec.ts, on the real
// Kafka broker and Redis brought up by deploy/local). `npm test` runs both; see deploy/local/test-all.mjs.
const preset = require('./jest.preset');

module.exports = {
  testTimeout: 120000,
  projects: [
    { ...preset, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...preset, displayName: 'integration', testMatch: ['**/*.int-spec.ts'], slowTestThreshold: 60 },
  ],
};
