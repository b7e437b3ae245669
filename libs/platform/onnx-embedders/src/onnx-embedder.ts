/**
 * A sentence-embedding model run in process by onnxruntime-node (DESIGN §5.6): the model's own
 * tokenizer.json through @huggingface/tokenizers, one padded batch per call, pooled as the model was
 * trained (mean over real tokens for MiniLM, [CLS] for BGE), then L2-normalized so cosine is a dot
 * product. CPU only, a fixed thread count; calls are serialized on one session, and each text runs on
 * its own (see run) so that its vector never depends on the batch it came in.
 */
import { readFile } from 'node:fs/promises';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { normalize, type Embedder } from '@wayfinder/embeddings';
import type { ModelFiles, ModelSpec } from './model-files';

export interface OnnxEmbedderOptions {
  /** onnxruntime intra-op threads (default 1: the detector worker shares its cores). */
  threads?: number;
}

const CLS = 101;
const SEP = 102;

export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly name: ModelSpec['name'];
  readonly dimension: number;
  /** The previous call, so calls run one after another on the session. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly spec: ModelSpec,
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: Tokenizer,
  ) {
    this.id = spec.id;
    this.name = spec.name;
    this.dimension = spec.dimension;
  }

  static async load(spec: ModelSpec, files: ModelFiles, options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
    const tokenizerJson: unknown = JSON.parse(await readFile(files.tokenizer, 'utf8'));
    const tokenizer = new Tokenizer(tokenizerJson as object, {});
    const threads = options.threads ?? 1;
    const session = await ort.InferenceSession.create(files.model, { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
    for (const input of ['input_ids', 'attention_mask']) {
      if (!session.inputNames.includes(input)) throw new Error(`${files.model}: the model has no '${input}' input (inputs: ${session.inputNames.join(', ')})`);
    }
    return new OnnxEmbedder(spec, session, tokenizer);
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    const run = this.queue.then(() => this.run(texts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async release(): Promise<void> {
    await this.session.release();
  }

  /** Token ids of one text, [CLS] … [SEP], cut to maxTokens. */
  tokenIds(text: string): number[] {
    const source = this.spec.lowercase ? text.toLowerCase() : text;
    const ids = this.tokenizer.encode(source).ids;
    if (ids.length <= this.spec.maxTokens) return ids;
    const cut = ids.slice(0, this.spec.maxTokens - 1);
    cut.push(SEP);
    return cut;
  }

  private async run(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimension));
    // The empty text (and one with nothing to tokenize) is the zero vector, as with hashing.
    const encoded: { index: number; ids: number[] }[] = [];
    texts.forEach((text, index) => {
      if (typeof text !== 'string' || text.trim().length === 0) return;
      const ids = this.tokenIds(text);
      if (ids.length > 2 || (ids.length > 0 && ids[0] !== CLS)) encoded.push({ index, ids });
    });
    if (encoded.length === 0) return out;
    // One text per run: the quantized models scale their activations per tensor, so a text padded into
    // a batch gets a slightly different vector (cosine ~0.995) than alone; a vector must depend only on
    // its text, or a replay or restart could change a decision.
    const GROUP = 1;
    for (let g = 0; g < encoded.length; g += GROUP) {
      const group = encoded.slice(g, g + GROUP);
      const length = group[group.length - 1].ids.length;
      const n = group.length;
      const ids = new BigInt64Array(n * length);
      const mask = new BigInt64Array(n * length);
      group.forEach((e, row) => {
        for (let t = 0; t < e.ids.length; t++) {
          ids[row * length + t] = BigInt(e.ids[t]);
          mask[row * length + t] = 1n;
        }
      });
      const feeds: Record<string, ort.Tensor> = {
        input_ids: new ort.Tensor('int64', ids, [n, length]),
        attention_mask: new ort.Tensor('int64', mask, [n, length]),
      };
      if (this.session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * length), [n, length]);
      const result = await this.session.run(feeds);
      const hidden = result[this.session.outputNames[0]];
      const data = hidden.data as Float32Array;
      const dim = hidden.dims[2];
      if (dim !== this.dimension) throw new Error(`${this.id}: the model returned ${dim} dimensions, expected ${this.dimension}`);
      group.forEach((e, row) => {
        const vector = out[e.index];
        const base = row * length * dim;
        if (this.spec.pooling === 'cls') {
          for (let d = 0; d < dim; d++) vector[d] = data[base + d];
        } else {
          const tokens = e.ids.length;
          for (let t = 0; t < tokens; t++) {
            const offset = base + t * dim;
            for (let d = 0; d < dim; d++) vector[d] += data[offset + d];
          }
          for (let d = 0; d < dim; d++) vector[d] /= tokens;
        }
        normalize(vector);
      });
      for (const tensor of Object.values(result)) tensor.dispose?.();
    }
    return out;
  }
}
