// Property tests run with a fixed seed so CI is reproducible; FC_SEED=<n> (or FC_SEED=random) explores
// other inputs locally. A failure prints its seed and path, which reproduce it.
const fc = require('fast-check');
const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261130);
if (seed !== undefined) fc.configureGlobal({ seed });
