/**
 * Loads the semantic embedders a process needs (DESIGN §5.6). A model whose files are absent is reported
 * once per process and name (a clear warning saying how to fetch it), and the process goes on without
 * it: every detector that chose it is served by the hashing embedder, with hashing's thresholds.
 */
import { EmbeddingCache, HashingEmbedder, type EmbedderName, type EmbeddingCacheOptions } from '@wayfinder/embeddings';
import { defaultModelsDir, findModelFiles, MODEL_SPECS, SEMANTIC_EMBEDDERS, type SemanticEmbedderName } from './model-files';
import { OnnxEmbedder, type OnnxEmbedderOptions } from './onnx-embedder';

export interface LoadEmbeddersOptions extends OnnxEmbedderOptions {
  modelsDir?: string;
  /** Where the warning goes (default console.warn). */
  warn?: (message: string) => void;
}

const warned = new Set<string>();

export function isSemanticEmbedder(name: string): name is SemanticEmbedderName {
  return (SEMANTIC_EMBEDDERS as readonly string[]).includes(name);
}

/** The warning for an absent model, once per process and models folder + name; true when it was printed now. */
export function warnModelAbsent(name: SemanticEmbedderName, modelsDir: string, warn: (message: string) => void): boolean {
  const key = `${modelsDir}\u0000${name}`;
  if (warned.has(key)) return false;
  warned.add(key);
  warn(
    `embedder '${name}': model files not found in ${modelsDir}/${name} (model.onnx, tokenizer.json from ${MODEL_SPECS[name].artifact}); ` +
      `run 'npm run models:fetch' (deploy/local/fetch-models.sh). Until then the detectors that chose '${name}' use the hashing embedder and its thresholds.`,
  );
  return true;
}

/** The available semantic embedders among `names` (hashing and duplicates are skipped). */
export async function loadSemanticEmbedders(names: Iterable<EmbedderName>, options: LoadEmbeddersOptions = {}): Promise<OnnxEmbedder[]> {
  const modelsDir = options.modelsDir ?? defaultModelsDir();
  const warn = options.warn ?? ((message: string) => console.warn(`wayfinder: ${message}`));
  const out: OnnxEmbedder[] = [];
  for (const name of new Set(names)) {
    if (!isSemanticEmbedder(name)) continue;
    const files = findModelFiles(name, modelsDir);
    if (!files) {
      warnModelAbsent(name, modelsDir, warn);
      continue;
    }
    out.push(await OnnxEmbedder.load(MODEL_SPECS[name], files, options));
  }
  return out;
}

/** An EmbeddingCache over hashing plus whichever of `names` could be loaded. */
export async function createEmbeddingCache(
  names: Iterable<EmbedderName>,
  options: LoadEmbeddersOptions & Omit<EmbeddingCacheOptions, 'hashing' | 'semantic'> & { hashing?: HashingEmbedder } = {},
): Promise<EmbeddingCache> {
  const requested = new Set(names);
  const semantic = await loadSemanticEmbedders(requested, options);
  const warn = options.warn ?? ((message: string) => console.warn(`wayfinder: ${message}`));
  const modelsDir = options.modelsDir ?? defaultModelsDir();
  const onFallback = (name: EmbedderName) => {
    // Requested but absent: already said by the loader. Not requested: a policy chose it later.
    if (!isSemanticEmbedder(name) || requested.has(name)) return;
    if (!findModelFiles(name, modelsDir)) warnModelAbsent(name, modelsDir, warn);
    else warn(`embedder '${name}': chosen by a policy but not loaded in this process (set WAYFINDER_EMBEDDERS=${name}); those detectors use the hashing embedder and its thresholds.`);
  };
  return new EmbeddingCache({ ...options, hashing: options.hashing ?? new HashingEmbedder(), semantic, onFallback });
}
