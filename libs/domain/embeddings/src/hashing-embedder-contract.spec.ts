import { HashingEmbedder } from './hashing-embedder';
import { embedderContract } from './testing/embedder-contract';

embedderContract('hashing', () => new HashingEmbedder(), {
  base: 'latest quarterly revenue of ACME corporation',
  paraphrase: 'ACME corporation revenue, latest quarter',
  unrelated: 'install the python package and run the unit tests',
});
