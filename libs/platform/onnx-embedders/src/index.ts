export * from './model-files';
export * from './onnx-embedder';
export * from './load-embedders';
