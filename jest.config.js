// Three Jest projects: `unit` (*.spec.ts, pure and in-process), `integration` (*.int-spec.ts, on the real
// Kafka broker and Redis brought up by deploy/local) and `chaos` (*.chaos-spec.ts, faults on real
// infrastructure). `npm test` runs all three; see deploy/local/test-all.mjs.
const preset = require('./jest.preset');

module.exports = {
  testTimeout: 120000,
  projects: [
    { ...preset, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...preset, displayName: 'integration', testMatch: ['**/*.int-spec.ts'], slowTestThreshold: 60 },
    // Faults on real infrastructure: services SIGKILLed and restarted, a broker and Redis of their own stopped.
    { ...preset, displayName: 'chaos', testMatch: ['**/*.chaos-spec.ts'], slowTestThreshold: 120 },
  ],
};
