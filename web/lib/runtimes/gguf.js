// ggufRopeKeys: the RoPE metadata of a GGUF file, read from its header only
// (@huggingface/gguf fetches the first chunks, never the tensor data), in the
// form the llama.cpp runtime reader takes ({ arch, keys, tensors }).
import { fail } from '../options.js';

const WHERE = 'ggufRopeKeys';
// The keys llama.cpp's context reads for RoPE, after the `<arch>.` prefix.
const ROPE_KEY = /^(context_length|embedding_length|attention\.head_count|attention\.key_length|rope\.)/;
// Tensors the converter writes for RoPE; the header lists them, their values are in the data section.
const ROPE_TENSORS = ['rope_freqs.weight', 'rope_factors_long.weight', 'rope_factors_short.weight'];

/** A fetch that answers gguf's range requests from a Blob (a File in the browser). */
const blobFetch = (blob) => async (_uri, init) => {
  const range = /bytes=(\d+)-(\d+)/.exec(init?.headers?.Range ?? '');
  const start = range ? Number(range[1]) : 0;
  const end = range ? Math.min(Number(range[2]) + 1, blob.size) : blob.size;
  return new Response(blob.slice(start, end), {
    status: 206,
    headers: { 'content-range': `bytes ${start}-${end - 1}/${blob.size}` },
  });
};

const isBlob = (v) => typeof Blob !== 'undefined' && v instanceof Blob;

/**
 * @param {string | Blob | Uint8Array} source a path (Node), a Blob or File (browser or Node), or bytes
 * @returns {Promise<{ arch: string, keys: Record<string, number | string | boolean>, tensors: {}, ropeTensors: string[], version: number }>}
 */
export async function ggufRopeKeys(source) {
  // Loaded on the first call: the package's other users (and the site's bundles) never carry the GGUF reader.
  const { gguf } = await import('@huggingface/gguf');
  let parsed;
  try {
    if (typeof source === 'string') {
      if (source === '') fail(TypeError, WHERE, 'source must be a path, a Blob/File or bytes', source);
      parsed = await gguf(source, { allowLocalFile: true });
    } else if (isBlob(source) || source instanceof Uint8Array) {
      const blob = isBlob(source) ? source : new Blob([source]);
      // gguf reads http(s) URIs through `fetch`: the URI only routes its range requests to the Blob.
      parsed = await gguf('https://posenc.invalid/model.gguf', { fetch: blobFetch(blob) });
    } else fail(TypeError, WHERE, 'source must be a path, a Blob/File or bytes (Uint8Array)', source);
  } catch (error) {
    if (error instanceof TypeError && String(error.message).startsWith('posenc.')) throw error;
    throw new RangeError(`posenc.${WHERE}: source is not a readable GGUF file (${error.message})`, { cause: error });
  }
  const { metadata, tensorInfos } = parsed;
  const arch = metadata['general.architecture'];
  if (typeof arch !== 'string' || arch === '')
    throw new RangeError(`posenc.${WHERE}: source has no general.architecture, so no <arch>.rope.* keys to read`);
  const keys = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (!key.startsWith(`${arch}.`) || !ROPE_KEY.test(key.slice(arch.length + 1))) continue;
    keys[key] = typeof value === 'bigint' ? Number(value) : value;
  }
  const names = new Set(tensorInfos.map((t) => t.name));
  return {
    arch,
    keys,
    // Header only: the factor tensors' values are not read (llama.cpp's rule then says they are unknown).
    tensors: {},
    ropeTensors: ROPE_TENSORS.filter((n) => names.has(n)),
    version: metadata.version,
  };
}
