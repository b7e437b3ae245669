// Jest's node environment runs each spec in its own realm, so its Float32Array is not the one that
// onnxruntime-node's native binding checks tensors against ("A float32 tensor's data must be type of
// Float32Array"). Specs that run the models name this environment in a docblock:
//   /** @jest-environment ./libs/platform/onnx-embedders/testing/onnx-jest-environment.js */
// It is the node environment with the host's typed arrays.
const { TestEnvironment } = require('jest-environment-node');

class OnnxEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['Float32Array', 'Float64Array', 'Int8Array', 'Uint8Array', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array', 'ArrayBuffer']) {
      this.global[name] = globalThis[name];
    }
  }
}

module.exports = OnnxEnvironment;
