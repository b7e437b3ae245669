/**
 * Contract suites of the tenancy ports, for the adapters' specs (jest globals: never exported by index.ts).
 * Import as `@wayfinder/tenancy/testing`.
 */
export { keyStoreContract } from './key-store.contract';
export { correctionLogContract, hintFor, type CorrectionLogHarness } from './correction-log.contract';
export { stepSeqsContract } from './step-seqs.contract';
