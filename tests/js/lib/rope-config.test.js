// ropeFromConfig where Hugging Face's own code (tests/fixtures/hf_rope.py, run by
// Debian's python3 and torch) computes something else or fails: a warning says so,
// or the fields are read as HF's config class maps them.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../../web/lib/index.js';
import { hfInvFreq, hfNeoxRopeParameters } from '../hf-fixture.js';
import { expectClose } from '../tolerance.js';

let pe;
beforeAll(async () => {
  pe = await load();
});

const codes = (result) => result.warnings.map((w) => w.code);

describe('ropeFromConfig against Hugging Face', () => {
  it('an odd head_dim (127) warns: HF takes arange(0, 127, 2) / 127, 64 frequencies for 127 dims', () => {
    // llama3 with factor 1 leaves HF's ladder as it is: its default ladder at dim 127.
    const spec = {
      head_dim: 127,
      max_position_embeddings: 8192,
      rope_parameters: {
        rope_type: 'llama3',
        rope_theta: 10000,
        factor: 1,
        low_freq_factor: 1,
        high_freq_factor: 4,
        original_max_position_embeddings: 8192,
      },
    };
    const hf = hfInvFreq(spec);
    const { options, warnings } = pe.ropeFromConfig({ head_dim: 127, rope_theta: 10000 });
    const warning = warnings.find((w) => w.code === 'odd-head-dim');
    expect(warning).toBeDefined();
    expect(warning.message).toContain(`gives ${hf.length} frequencies at exponents 2i/127`);
    // hfInvFreq computes in float32, torch's default: a rounding or two of 2^-24.
    expectClose(hf[1], 1 / 10000 ** (2 / 127), { relative: 1e-7 });
    // posenc rotates the 126 dims that pair up.
    expect(pe.ropeFrequencies(options).invFreq.length).toBe(hf.length - 1);
    expect(codes(pe.ropeFromConfig({ head_dim: 128, rope_theta: 10000 }))).toEqual([]);
  });

  it("GPT-NeoX's rotary_emb_base and rotary_pct are read as GPTNeoXConfig maps them (rotary_pct 0.25 when missing)", () => {
    for (const fields of [{ rotary_emb_base: 1e6, rotary_pct: 0.5 }, { rotary_emb_base: 500000 }, { rotary_pct: 1 }]) {
      const hf = hfNeoxRopeParameters(fields);
      const config = { model_type: 'gpt_neox', hidden_size: 512, num_attention_heads: 8, ...fields };
      const { options, warnings } = pe.ropeFromConfig(config);
      expect(options.base, JSON.stringify(fields)).toBe(hf.rope_theta);
      expect(options.partialRotaryFactor ?? 1).toBe(hf.partial_rotary_factor);
      expect(warnings.some((w) => w.code === 'rope-theta-missing')).toBe(fields.rotary_emb_base === undefined);
    }
  });

  it('llama3 with factor null warns (HF fails computing inv_freq / None), and assumes Llama 3.1’s 8', () => {
    const rope = { low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 };
    expect(() =>
      hfInvFreq({
        head_dim: 64,
        max_position_embeddings: 131072,
        rope_parameters: { rope_type: 'llama3', rope_theta: 500000, factor: null, ...rope },
      }),
    ).toThrow(/TypeError/);
    const { options, warnings } = pe.ropeFromConfig({
      head_dim: 64,
      rope_theta: 500000,
      rope_scaling: { rope_type: 'llama3', factor: null, ...rope },
    });
    const warning = warnings.find((w) => w.code === 'llama3-fields-missing');
    expect(warning?.message).toMatch(/lacks factor .*null.*assumed factor = 8/);
    expect(options.scaling.factor).toBe(8);
  });

  it("Gemma 3: a warning that the sliding-window layers use rope_local_base_freq, counted as Gemma3TextConfig's layer_types", () => {
    // Gemma3TextConfig: layer i is full_attention when (i + 1) % sliding_window_pattern == 0 (6 by default).
    const layerTypes = (layers, pattern) =>
      Array.from({ length: layers }, (_, i) => ((i + 1) % pattern ? 'sliding_attention' : 'full_attention'));
    const gemma = {
      model_type: 'gemma3_text',
      head_dim: 256,
      hidden_size: 2560,
      num_attention_heads: 8,
      num_hidden_layers: 34,
      rope_theta: 1e6,
      rope_local_base_freq: 10000,
      rope_scaling: { rope_type: 'linear', factor: 8 },
    };
    for (const [config, types] of [
      [gemma, layerTypes(34, 6)],
      [{ ...gemma, sliding_window_pattern: 4 }, layerTypes(34, 4)],
      [{ ...gemma, layer_types: ['sliding_attention', 'full_attention'] }, ['sliding_attention', 'full_attention']],
    ]) {
      const sliding = types.filter((t) => t === 'sliding_attention').length;
      const { options, warnings } = pe.ropeFromConfig(config);
      const warning = warnings.find((w) => w.code === 'local-rope-base');
      expect(warning?.message).toContain(`${sliding} of ${types.length} layers (sliding_attention)`);
      expect(warning.message).toContain('rope_local_base_freq = 10000');
      expect(warning.message).toContain(`the ${types.length - sliding} full_attention layers`);
      expect(options).toEqual({ headDim: 256, base: 1e6, scaling: { type: 'linear', factor: 8 } });
    }
    expect(codes(pe.ropeFromConfig({ ...gemma, rope_local_base_freq: undefined }))).toEqual([]);
  });
});
