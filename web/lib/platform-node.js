// Node: the glue is built for web/worker (its node build needs __dirname,
// which ESM lacks), so the wasm bytes are read from the package and handed over.
export async function readWasm(url) {
  const { readFile } = await import('node:fs/promises');
  return readFile(url);
}
