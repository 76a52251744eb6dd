// posenc/runtimes: what each runtime computes for a model's RoPE (docs/runtimes.md). Its own entry
// point: an app that only computes encodings does not bundle the runtimes' rules.
import type { GgufRopeKeys, Posenc, RuntimeComparison } from '../index.js';

export type { GgufRopeKeys, RuntimeComparison, RuntimeDifference, RuntimeLayer } from '../index.js';

/**
 * What Hugging Face transformers 4.4x and 5, vLLM, llama.cpp and MLX-LM each compute for a config.json's
 * RoPE, layer type by layer type, and their differences from transformers 5. `pe`: `await load()`.
 */
export function compareRuntimes(
  pe: Posenc,
  config: object,
  opts?: { seqLen?: number; nCtx?: number; maxModelLen?: number },
): RuntimeComparison;
/** Reads a GGUF header: a path (Node ≥ 20), a Blob or File (browser or Node), or the file's bytes. */
export function ggufRopeKeys(source: string | Blob | Uint8Array): Promise<GgufRopeKeys>;
