// Runs tests/fixtures/hf_rope.py (Hugging Face's own RoPE code, copied verbatim) with
// Debian's python3 and torch: caches and frequencies as transformers makes them.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../fixtures/hf_rope.py', import.meta.url));
const run = (spec) =>
  execFileSync('/usr/bin/python3', [script, JSON.stringify(spec)], {
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Float64Array of the fixture's little-endian float64 output. */
function numbers(spec) {
  const out = run(spec);
  return new Float64Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length));
}

/** HF's cos or sin cache [rows x head_dim] for spec = { head_dim, max_position_embeddings, rope_parameters }. */
export const hfCache = (spec, { rows, kind, dtype }) => numbers({ ...spec, rows, kind, dtype });

/** HF's inv_freq (float32 values) for the same spec. */
export const hfInvFreq = (spec) => numbers({ ...spec, rows: 1, kind: 'cos', dtype: 'float32', inv_freq: true });

/** HF's attention factor (the float its rope init function returns) for the same spec. */
export const hfAttentionFactor = (spec) =>
  numbers({ ...spec, rows: 1, kind: 'cos', dtype: 'float32', attention_factor: true })[0];

/** The rope_parameters GPTNeoXConfig makes of config.json's fields. */
export const hfNeoxRopeParameters = (kwargs) => JSON.parse(run({ neox: kwargs }).toString());
