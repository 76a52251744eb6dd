// The one loader: picks the SIMD or scalar build, finds its .wasm (beside this
// module, or a URL / bytes the caller gives), instantiates it once and caches
// the API, so every caller (and every embed on a page) shares one instance.
import { createApi } from './api.js';
import { checkBoundary, moduleReport } from './boundary.js';
import { describe } from './options.js';

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
// The core-* builds leave out the RoPE functions and leastSquaresResiduals (load({ rope: false })).
const WASM_URLS = {
  simd: () => new URL('./wasm/posenc-simd.wasm', import.meta.url),
  scalar: () => new URL('./wasm/posenc-scalar.wasm', import.meta.url),
  'core-simd': () => new URL('./wasm/posenc-core-simd.wasm', import.meta.url),
  'core-scalar': () => new URL('./wasm/posenc-core-scalar.wasm', import.meta.url),
};
const FACTORIES = {
  simd: () => import('./wasm/posenc-simd.mjs'),
  scalar: () => import('./wasm/posenc-scalar.mjs'),
  'core-simd': () => import('./wasm/posenc-core-simd.mjs'),
  'core-scalar': () => import('./wasm/posenc-core-scalar.mjs'),
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

// Loads by source ('' for the default .wasm, a URL's text, or a key of the
// bytes' content), then by variant: one promise each.
const cache = new Map();
const LOAD_OPTIONS = ['wasmUrl', 'wasmBinary', 'simd', 'rope', 'timeout'];
// How long a load may take before it rejects: a .wasm request that never
// answers must not leave a page "Loading…" for good.
export const DEFAULT_TIMEOUT = 30000;
const MAX_TIMEOUT = 600000;

function checkLoadOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`posenc.load: options must be an object (got ${describe(options)})`);
  for (const key of Object.keys(options))
    if (!LOAD_OPTIONS.includes(key))
      throw new TypeError(`posenc.load: unknown option '${key}'; known options: ${LOAD_OPTIONS.join(', ')}`);
  const { wasmUrl, wasmBinary, simd, rope, timeout } = options;
  if (wasmUrl !== undefined && typeof wasmUrl !== 'string' && !(wasmUrl instanceof URL))
    throw new TypeError(`posenc.load: wasmUrl must be a string or URL (got ${describe(wasmUrl)})`);
  // '' would name the working directory (Node) or the page itself (browser).
  if (typeof wasmUrl === 'string' && wasmUrl.trim() === '')
    throw new TypeError('posenc.load: wasmUrl must be a non-empty string or URL (got "")');
  if (wasmUrl !== undefined && wasmBinary !== undefined)
    throw new TypeError('posenc.load: give either wasmUrl or wasmBinary, not both');
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer) && !ArrayBuffer.isView(wasmBinary))
    throw new TypeError(
      `posenc.load: wasmBinary must be an ArrayBuffer or a typed array (got ${describe(wasmBinary)})`,
    );
  if (simd !== undefined && typeof simd !== 'boolean')
    throw new TypeError(`posenc.load: simd must be true or false (got ${describe(simd)})`);
  if (rope !== undefined && typeof rope !== 'boolean')
    throw new TypeError(`posenc.load: rope must be true or false (got ${describe(rope)})`);
  if (simd === true && !simdSupported())
    throw new RangeError('posenc.load: simd: true was asked for, but this engine has no WebAssembly SIMD');
  if (timeout !== undefined) {
    if (typeof timeout !== 'number')
      throw new TypeError(`posenc.load: timeout must be a number of milliseconds (got ${describe(timeout)})`);
    if (!(timeout > 0 && timeout <= MAX_TIMEOUT))
      throw new RangeError(
        `posenc.load: timeout must be a number of milliseconds in (0, ${MAX_TIMEOUT}] (got ${timeout})`,
      );
  }
}

/** The bytes of a wasmBinary option, as a Uint8Array over the caller's memory (not copied). */
const bytesOf = (binary) =>
  binary instanceof ArrayBuffer
    ? new Uint8Array(binary)
    : new Uint8Array(binary.buffer, binary.byteOffset, binary.byteLength);

// Bytes given before, by content hash: a fresh copy of the same bytes gets the
// same module instead of a new instance each time.
const binaries = new Map();

/** The cache key of wasmBinary bytes: equal bytes, equal key (a hash, then a full comparison). */
function binaryKey(binary) {
  const bytes = bytesOf(binary);
  // FNV-1a over the bytes: 60 KB in well under a millisecond.
  let hash = 0x811c9dc5;
  for (let k = 0; k < bytes.length; k++) hash = Math.imul(hash ^ bytes[k], 0x01000193);
  const bucket = `bytes:${bytes.length}:${(hash >>> 0).toString(16)}`;
  if (!binaries.has(bucket)) binaries.set(bucket, []);
  const known = binaries.get(bucket);
  let index = known.findIndex((other) => other.length === bytes.length && other.every((b, k) => b === bytes[k]));
  // A copy: the caller may reuse its buffer for other bytes.
  if (index < 0) index = known.push(bytes.slice()) - 1;
  return `${bucket}:${index}`;
}

/**
 * A caller's wasmUrl, resolved as the caller would expect: in a browser
 * against the page (as fetch() does), in Node a path or file: URL against the
 * working directory (as fs does). Never against this module's own location.
 */
async function resolveWasmUrl(wasmUrl) {
  if (wasmUrl instanceof URL) return wasmUrl;
  if (isNode) {
    // A URL (file:, http:, data:, …; two letters at least, so that C:\ stays a path), else a path.
    if (/^[a-z][a-z\d+.-]+:/i.test(wasmUrl)) return new URL(wasmUrl);
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
    // data: URLs hold the bytes (fetch reads them in browsers and Node alike).
    else if (url.protocol === 'data:') moduleArgs.wasmBinary = new Uint8Array(await (await fetch(url)).arrayBuffer());
    else moduleArgs.locateFile = () => url.href;
    module = await factory(moduleArgs);
  } catch (error) {
    // The error itself (Emscripten's Aborted(...) says what failed last), else the runtime's last word.
    const detail = String(error?.message ?? '') || startup.at(-1) || String(error);
    const source = wasmBinary !== undefined ? 'the wasmBinary bytes' : shortUrl(url);
    throw new Error(`posenc.load: could not instantiate the WebAssembly module from ${source}: ${detail}`, {
      cause: error,
    });
  }
  started = true;
  for (const text of startup) console.warn(text);
  // Before any call stages a field: a module built from other sources is refused here.
  const has = (name) => typeof module[name] === 'function';
  return createApi(module, checkBoundary(moduleReport(module), has('ropeFrequencies'), has('timestepEmbedding')));
}

/** A URL for a message: data: URLs shortened. */
const shortUrl = (url) => (url.protocol === 'data:' ? `${url.href.slice(0, 40)}…` : url.href);

/** `promise`, or a rejection naming the source once `timeout` ms have passed. */
function withTimeout(promise, timeout, options) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const source =
        options.wasmBinary !== undefined
          ? 'the wasmBinary bytes'
          : options.wasmUrl === undefined
            ? 'posenc-*.wasm beside the library'
            : String(options.wasmUrl).slice(0, 80);
      reject(
        new Error(
          `posenc.load: timeout: the WebAssembly module from ${source} did not load within ${timeout} ms; check the network and call load() again`,
        ),
      );
    }, timeout);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * Loads the module (idempotent: the same source gives the same promise; the
 * same wasmBinary bytes too, even in a fresh copy). A load that failed or
 * timed out is forgotten, so that the next call tries again.
 * @param {import('./index.js').LoadOptions} [options]
 */
export function load(options = {}) {
  // A promise-returning function reports bad options as a rejection too.
  try {
    checkLoadOptions(options);
  } catch (error) {
    return Promise.reject(error);
  }
  const variant = `${options.rope === false ? 'core-' : ''}${(options.simd ?? simdSupported()) ? 'simd' : 'scalar'}`;
  const source =
    options.wasmBinary !== undefined
      ? binaryKey(options.wasmBinary)
      : options.wasmUrl === undefined
        ? ''
        : `url:${String(options.wasmUrl)}`;
  let byVariant = cache.get(source);
  if (!byVariant) cache.set(source, (byVariant = new Map()));
  if (!byVariant.has(variant)) {
    const promise = withTimeout(instantiate(variant, options), options.timeout ?? DEFAULT_TIMEOUT, options);
    byVariant.set(variant, promise);
    // A failed load (bad URL, offline, timed out) may be retried.
    promise.catch(() => {
      if (byVariant.get(variant) === promise) byVariant.delete(variant);
    });
  }
  return byVariant.get(variant);
}
