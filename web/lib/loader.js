// The one loader: picks the SIMD or scalar build, finds its .wasm (beside this
// module, or a URL / bytes the caller gives), instantiates it once and caches
// the API, so every caller (and every embed on a page) shares one instance.
import { createApi } from './api.js';

// A module using v128 (i8x16.splat / popcnt): validates only where SIMD is on.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// Literal `new URL(..., import.meta.url)` so bundlers (Vite) emit the files.
const WASM_URLS = {
  simd: () => new URL('./wasm/posenc-simd.wasm', import.meta.url),
  scalar: () => new URL('./wasm/posenc-scalar.wasm', import.meta.url),
};
const FACTORIES = {
  simd: () => import('./wasm/posenc-simd.mjs'),
  scalar: () => import('./wasm/posenc-scalar.mjs'),
};

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

// Node reads the bytes from disk. The specifier is a variable and marked
// ignored so that bundlers (Vite, webpack) leave it out of browser builds, and
// a browser importing this file with no build step never evaluates it.
async function readWasm(url) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsModule);
  return readFile(url);
}

const cache = new Map();
const LOAD_OPTIONS = new Set(['wasmUrl', 'wasmBinary', 'simd']);

function checkLoadOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`posenc.load: options must be an object (got ${String(options)})`);
  for (const key of Object.keys(options))
    if (!LOAD_OPTIONS.has(key))
      throw new TypeError(`posenc.load: unknown option '${key}'; known options: wasmUrl, wasmBinary, simd`);
  const { wasmUrl, wasmBinary, simd } = options;
  if (wasmUrl !== undefined && typeof wasmUrl !== 'string' && !(wasmUrl instanceof URL))
    throw new TypeError('posenc.load: wasmUrl must be a string or URL');
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) && !ArrayBuffer.isView(wasmBinary))
    throw new TypeError('posenc.load: wasmBinary must be an ArrayBuffer or a typed array');
  if (simd !== undefined && typeof simd !== 'boolean') throw new TypeError('posenc.load: simd must be true or false');
  if (simd === true && !simdSupported())
    throw new RangeError('posenc.load: simd: true was asked for, but this engine has no WebAssembly SIMD');
}

/**
 * A caller's wasmUrl, resolved as the caller would expect: in a browser
 * against the page (as fetch() does), in Node a path or file: URL against the
 * working directory (as fs does). Never against this module's own location.
 */
async function resolveWasmUrl(wasmUrl) {
  if (wasmUrl instanceof URL) return wasmUrl;
  if (isNode) {
    if (/^[a-z][a-z\d+.-]*:\/\//i.test(wasmUrl)) return new URL(wasmUrl);
    // Variable specifiers, ignored by bundlers: see readWasm.
    const [urlModule, pathModule] = ['node:url', 'node:path'];
    const [{ pathToFileURL }, { resolve }] = await Promise.all([
      import(/* webpackIgnore: true */ /* @vite-ignore */ urlModule),
      import(/* webpackIgnore: true */ /* @vite-ignore */ pathModule),
    ]);
    return pathToFileURL(resolve(wasmUrl));
  }
  return new URL(wasmUrl, globalThis.document?.baseURI ?? globalThis.location?.href);
}

async function instantiate(variant, { wasmUrl, wasmBinary }) {
  const { default: factory } = await FACTORIES[variant]();
  const url = wasmUrl === undefined ? WASM_URLS[variant]() : await resolveWasmUrl(wasmUrl);
  // The runtime's messages while it starts become part of the error if it fails
  // (instead of stderr noise), and are warnings if it starts anyway (e.g. a
  // wrong MIME type that made it fall back from streaming compilation).
  const startup = [];
  let started = false;
  const moduleArgs = { printErr: (text) => (started ? console.warn(text) : startup.push(String(text))) };
  let module;
  try {
    if (wasmBinary !== undefined) moduleArgs.wasmBinary = wasmBinary;
    else if (isNode && url.protocol === 'file:') moduleArgs.wasmBinary = await readWasm(url);
    else moduleArgs.locateFile = () => url.href;
    module = await factory(moduleArgs);
  } catch (error) {
    // The error itself (Emscripten's Aborted(...) says what failed last), else the runtime's last word.
    const detail = String(error?.message ?? '') || startup.at(-1) || String(error);
    const source = wasmBinary !== undefined ? 'the wasmBinary bytes' : url.href;
    throw new Error(`posenc.load: could not instantiate the WebAssembly module from ${source}: ${detail}`, {
      cause: error,
    });
  }
  started = true;
  for (const text of startup) console.warn(text);
  return createApi(module);
}

/**
 * Loads the module (idempotent: the same options give the same promise).
 * @param {import('./index.js').LoadOptions} [options]
 */
export function load(options = {}) {
  // A promise-returning function reports bad options as a rejection too.
  try {
    checkLoadOptions(options);
  } catch (error) {
    return Promise.reject(error);
  }
  const variant = (options.simd ?? simdSupported()) ? 'simd' : 'scalar';
  const source = options.wasmBinary ?? (options.wasmUrl === undefined ? '' : String(options.wasmUrl));
  let byVariant = cache.get(source);
  if (!byVariant) cache.set(source, (byVariant = new Map()));
  if (!byVariant.has(variant)) {
    const promise = instantiate(variant, options);
    byVariant.set(variant, promise);
    // A failed load (bad URL, offline) may be retried.
    promise.catch(() => byVariant.delete(variant));
  }
  return byVariant.get(variant);
}
