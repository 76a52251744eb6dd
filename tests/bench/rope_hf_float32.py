# How far Hugging Face's float32 RoPE is from the exact value (docs/rope.md).
# Run by hand: /usr/bin/python3 tests/bench/rope_hf_float32.py (Debian's python3-torch, CPU).
# The float32 lines are transformers' modeling_rope_utils.py expressions (the commit
# docs/rope.md names) and LlamaRotaryEmbedding.forward; the exact ones are float64 numpy.
import math

import numpy as np
import torch


def exact_ladder(dim, base):
    return 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)


def hf_ladder(dim, base):
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))


def yarn(dim, base, factor, original, hf):
    def correction_dim(rotations):
        return (dim * math.log(original / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = max(math.floor(correction_dim(32)), 0), min(math.ceil(correction_dim(1)), dim - 1)
    if hf:
        pos_freqs = base ** (torch.arange(0, dim, 2).to(dtype=torch.float) / dim)
        ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    else:
        pos_freqs = base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
        ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
    extrapolation_factor = 1 - ramp
    return (1.0 / (factor * pos_freqs)) * (1 - extrapolation_factor) + (1.0 / pos_freqs) * extrapolation_factor


def llama3(dim, base, hf):
    inv_freq = hf_ladder(dim, base) if hf else exact_ladder(dim, base)
    where = torch.where if hf else np.where
    wavelen = 2 * math.pi / inv_freq
    scaled = where(wavelen > 8192, inv_freq / 8, inv_freq)
    smooth = (8192 / wavelen - 1) / (4 - 1)
    smoothed = (1 - smooth) * scaled / 8 + smooth * scaled
    medium = ~(wavelen < 8192 / 4) * ~(wavelen > 8192) if hf else ~(wavelen < 8192 / 4) & ~(wavelen > 8192)
    return where(medium, smoothed, scaled)


def dynamic(dim, base, factor, max_positions, seq_len, hf):
    base = base * ((factor * seq_len / max_positions) - (factor - 1)) ** (dim / (dim - 2))
    return hf_ladder(dim, base) if hf else exact_ladder(dim, base)


def hf_cos(inv_freq, positions):
    # LlamaRotaryEmbedding.forward: float32 matmul of inv_freq and position ids (autocast off).
    inv = inv_freq[None, :, None].float()
    pos = torch.tensor(positions, dtype=torch.int64)[None, None, :].float()
    return (inv @ pos).transpose(1, 2)[0].cos().double().numpy()


cases = [
    ("default d=128 base=1e4", hf_ladder(128, 1e4), exact_ladder(128, 1e4)),
    ("default d=96 base=1e4 (2i/d inexact)", hf_ladder(96, 1e4), exact_ladder(96, 1e4)),
    ("default d=128 base=5e5 (Llama 3)", hf_ladder(128, 5e5), exact_ladder(128, 5e5)),
    ("llama3 d=128 base=5e5 factor 8", llama3(128, 5e5, True), llama3(128, 5e5, False)),
    ("yarn d=128 base=1e6 factor 4 (Qwen2.5)", yarn(128, 1e6, 4, 32768, True), yarn(128, 1e6, 4, 32768, False)),
    (
        "dynamic d=128 factor 2, seq 10000 of 4096",
        dynamic(128, 1e4, 2, 4096, 10000, True),
        dynamic(128, 1e4, 2, 4096, 10000, False),
    ),
]
positions = np.array([1, 100, 4095, 32767, 131071], dtype=np.int64)
for name, hf, exact in cases:
    hf64 = hf.double().numpy()
    relative = np.max(np.abs(hf64 - exact) / exact)
    cos_hf = hf_cos(hf, positions)
    cos_exact = np.cos(np.outer(positions.astype(np.float64), exact))
    errors = np.max(np.abs(cos_hf - cos_exact), axis=1)
    print(f"{name}: inv_freq max relative error {relative:.2e}; max |cos error| at positions", end="")
    print("".join(f" {p}: {e:.1e}" for p, e in zip(positions, errors)))
