// Browsers fetch the .wasm themselves (streaming compilation).
export const readWasm = null;
