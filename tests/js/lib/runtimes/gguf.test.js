// ggufRopeKeys on GGUF files written here byte by byte from the GGUF spec (ggml-org/ggml docs/gguf.md at
// 01f0d4da3e444ca2bfe705e72adab08a4394bb1d: header magic "GGUF", version 3, tensor and metadata counts as
// uint64, then key-value pairs, then tensor infos), read from a path, from bytes and from a Blob, and fed
// to the llama.cpp reader.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../../web/lib/index.js';
import { compareRuntimes, ggufRopeKeys, llamacpp } from '../../../../web/lib/runtimes/index.js';
import { expectClose } from '../../tolerance.js';

// gguf_metadata_value_type
const UINT32 = 4;
const FLOAT32 = 6;
const STRING = 8;
const UINT64 = 10;

/** Little-endian GGUF v3 bytes: metadata [key, type, value] and tensor infos { name, dims, type, offset }. */
function ggufBytes(metadata, tensors = []) {
  const parts = [];
  const u32 = (v) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    parts.push(b);
  };
  const u64 = (v) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    parts.push(b);
  };
  const str = (s) => {
    const bytes = Buffer.from(s, 'utf8');
    u64(bytes.length);
    parts.push(bytes);
  };
  parts.push(Buffer.from('GGUF', 'ascii'));
  u32(3);
  u64(tensors.length);
  u64(metadata.length);
  for (const [key, type, value] of metadata) {
    str(key);
    u32(type);
    if (type === UINT32) u32(value);
    else if (type === UINT64) u64(value);
    else if (type === FLOAT32) {
      const b = Buffer.alloc(4);
      b.writeFloatLE(value);
      parts.push(b);
    } else if (type === STRING) str(value);
    else throw new Error(`type ${type} not written by this test`);
  }
  for (const t of tensors) {
    str(t.name);
    u32(t.dims.length);
    for (const d of t.dims) u64(d);
    u32(t.type);
    u64(t.offset);
  }
  return Buffer.concat(parts);
}

// What convert_hf_to_gguf.py writes for Qwen2.5-7B-Instruct with its YaRN rope_scaling (llama.cpp's
// reader's ggufFromConfig gives the same keys; this file is written from the values, not from it).
const QWEN_YARN = [
  ['general.architecture', STRING, 'qwen2'],
  ['general.name', STRING, 'test'],
  ['qwen2.context_length', UINT32, 32768],
  ['qwen2.embedding_length', UINT32, 3584],
  ['qwen2.attention.head_count', UINT32, 28],
  ['qwen2.rope.freq_base', FLOAT32, 1e6],
  ['qwen2.rope.dimension_count', UINT32, 128],
  ['qwen2.rope.scaling.type', STRING, 'yarn'],
  ['qwen2.rope.scaling.factor', FLOAT32, 4],
  ['qwen2.rope.scaling.original_context_length', UINT64, 32768],
  ['tokenizer.ggml.model', STRING, 'gpt2'],
];

let pe;
let dir;
beforeAll(async () => {
  pe = await load();
  dir = mkdtempSync(join(tmpdir(), 'posenc-gguf-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ggufRopeKeys', () => {
  it('reads the RoPE keys from a path, from bytes and from a Blob, the same each way', async () => {
    const bytes = ggufBytes(QWEN_YARN);
    const path = join(dir, 'qwen.gguf');
    writeFileSync(path, bytes);
    const want = {
      'qwen2.context_length': 32768,
      'qwen2.embedding_length': 3584,
      'qwen2.attention.head_count': 28,
      'qwen2.rope.freq_base': 1e6,
      'qwen2.rope.dimension_count': 128,
      'qwen2.rope.scaling.type': 'yarn',
      'qwen2.rope.scaling.factor': 4,
      'qwen2.rope.scaling.original_context_length': 32768,
    };
    for (const source of [path, new Uint8Array(bytes), new Blob([bytes])]) {
      const read = await ggufRopeKeys(source);
      expect(read.arch).toBe('qwen2');
      expect(read.keys).toEqual(want);
      expect(read.ropeTensors).toEqual([]);
    }
  });

  it('gives llama.cpp the frequencies and attention factor its reader gives for the config', async () => {
    const read = await ggufRopeKeys(new Blob([ggufBytes(QWEN_YARN)]));
    const config = {
      model_type: 'qwen2',
      hidden_size: 3584,
      num_attention_heads: 28,
      max_position_embeddings: 32768,
      rope_theta: 1e6,
      rope_scaling: { factor: 4, original_max_position_embeddings: 32768, type: 'yarn' },
    };
    const [fromFile] = llamacpp(read, {});
    const [fromConfig] = compareRuntimes(pe, config, { seqLen: 4096 }).runtimes.llamacpp;
    expectClose(fromFile.invFreq, fromConfig.invFreq, 0);
    expect(fromFile.attentionFactor).toBe(fromConfig.attentionFactor);
    expectClose(fromFile.attentionFactor, Math.fround(0.1 * Math.log(4) + 1), 1e-7);
  });

  it("names the converter's RoPE factor tensors listed in the header without reading their data", async () => {
    const bytes = ggufBytes(
      [
        ['general.architecture', STRING, 'llama'],
        ['llama.rope.freq_base', FLOAT32, 5e5],
        ['llama.rope.dimension_count', UINT32, 128],
      ],
      [{ name: 'rope_freqs.weight', dims: [64], type: 0, offset: 0 }],
    );
    const read = await ggufRopeKeys(new Uint8Array(bytes));
    expect(read.ropeTensors).toEqual(['rope_freqs.weight']);
    expect(read.keys).toEqual({ 'llama.rope.freq_base': 5e5, 'llama.rope.dimension_count': 128 });
  });

  it('bad input: a TypeError or RangeError naming the function and the parameter', async () => {
    await expect(ggufRopeKeys(42)).rejects.toThrow(TypeError);
    await expect(ggufRopeKeys(42)).rejects.toThrow(/posenc\.ggufRopeKeys: source must be/);
    await expect(ggufRopeKeys('')).rejects.toThrow(TypeError);
    await expect(ggufRopeKeys(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).rejects.toThrow(
      /posenc\.ggufRopeKeys: source is not a readable GGUF file/,
    );
    await expect(ggufRopeKeys(join(dir, 'missing.gguf'))).rejects.toThrow(RangeError);
    const noArch = ggufBytes([['general.name', STRING, 'x']]);
    await expect(ggufRopeKeys(new Blob([noArch]))).rejects.toThrow(/source has no general.architecture/);
  });
});
