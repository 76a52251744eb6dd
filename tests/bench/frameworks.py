# What numpy and PyTorch users write for the tables `npm run bench` times in
# JavaScript (suite.js), timed on the same machine in the same run: float32,
# one thread for torch (torch.set_num_threads(1); numpy's elementwise math is
# single-threaded). Prints one JSON object; a framework that does not import is
# reported as missing. Run by node.mjs with /usr/bin/python3 (Debian's
# python3-numpy and python3-torch 1.13).
import json
import math
import sys
import time

import numpy as np

try:
    import torch

    torch.set_num_threads(1)
except ImportError:
    torch = None


def sample(fn, min_runs=5, budget_s=0.6):
    """Median and quartiles of fn's wall time in ms, after one warm-up call."""
    out = fn()
    times = []
    start = time.perf_counter()
    while len(times) < min_runs or (time.perf_counter() - start < budget_s and len(times) < 200):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    q1, median, q3 = np.percentile(times, [25, 50, 75])
    return {"median": median, "q1": q1, "q3": q3, "runs": len(times)}, out


def rope_exact(length, d, base):
    inv_freq = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    freqs = np.outer(np.arange(length, dtype=np.float64), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb), np.sin(emb)


def table_exact(length, d):
    angle = np.arange(length, dtype=np.float64)[:, None] / 10000 ** (np.arange(0, d, 2, dtype=np.float64) / d)
    table = np.empty((length, d))
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


# RoPE caches as Hugging Face's LlamaRotaryEmbedding writes them (cat, then cos and sin of every column),
# and with cos and sin taken once per pair before the cat (half the transcendental calls).
def numpy_rope_cat_first(length, d, base):
    inv_freq = np.float32(1.0) / np.float32(base) ** (np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    freqs = np.outer(np.arange(length, dtype=np.float32), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb), np.sin(emb)


def numpy_rope_trig_first(length, d, base):
    inv_freq = np.float32(1.0) / np.float32(base) ** (np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    freqs = np.outer(np.arange(length, dtype=np.float32), inv_freq)
    c, s = np.cos(freqs), np.sin(freqs)
    return np.concatenate([c, c], axis=-1), np.concatenate([s, s], axis=-1)


def torch_rope_cat_first(length, d, base):
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
    freqs = torch.outer(torch.arange(length, dtype=torch.float32), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def torch_rope_trig_first(length, d, base):
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
    freqs = torch.outer(torch.arange(length, dtype=torch.float32), inv_freq)
    c, s = freqs.cos(), freqs.sin()
    return torch.cat((c, c), dim=-1), torch.cat((s, s), dim=-1)


# The sinusoidal table as the PyTorch tutorial writes it (div_term by exp and log), in each framework.
def numpy_table(length, d):
    position = np.arange(length, dtype=np.float32)[:, None]
    div_term = np.exp(np.arange(0, d, 2, dtype=np.float32) * np.float32(-math.log(10000.0) / d))
    table = np.empty((length, d), dtype=np.float32)
    table[:, 0::2] = np.sin(position * div_term)
    table[:, 1::2] = np.cos(position * div_term)
    return table


def torch_table(length, d):
    position = torch.arange(length, dtype=torch.float32).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    table = torch.zeros(length, d)
    table[:, 0::2] = torch.sin(position * div_term)
    table[:, 1::2] = torch.cos(position * div_term)
    return table


def error_of(got, want):
    return float(max(np.max(np.abs(np.asarray(g, dtype=np.float64) - w)) for g, w in zip(got, want)))


def main():
    length, d, base = [int(x) for x in sys.argv[1:4]]
    table_sizes = [tuple(int(x) for x in size.split("x")) for size in sys.argv[4:]]
    results = {
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "torch": torch.__version__ if torch else None,
        "torchThreads": torch.get_num_threads() if torch else None,
        "rows": [],
    }
    exact = rope_exact(length, d, base)
    rope = [("numpy, cat then cos/sin", numpy_rope_cat_first), ("numpy, cos/sin then cat", numpy_rope_trig_first)]
    if torch:
        rope += [("torch, cat then cos/sin", torch_rope_cat_first), ("torch, cos/sin then cat", torch_rope_trig_first)]
    for how, fn in rope:
        timing, out = sample(lambda: fn(length, d, base))
        # Written out in float64, then compared: torch's results go through numpy.
        got = [x.numpy() if torch and isinstance(x, torch.Tensor) else x for x in out]
        row = {"case": f"ropeCache {length}x{d}", "how": how, **timing, "maxAbsError": error_of(got, exact)}
        results["rows"].append({**row, "dtype": str(got[0].dtype)})
    for size in table_sizes:
        want = table_exact(*size)
        tables = [("numpy", numpy_table)] + ([("torch", torch_table)] if torch else [])
        for how, fn in tables:
            timing, out = sample(lambda: fn(*size), min_runs=3 if size[0] * size[1] >= 8192 * 1024 else 5)
            got = out.numpy() if torch and isinstance(out, torch.Tensor) else out
            results["rows"].append(
                {
                    "case": f"table {size[0]}x{size[1]}",
                    "how": how,
                    **timing,
                    "maxAbsError": error_of([got], [want]),
                    "dtype": str(got.dtype),
                }
            )
    print(json.dumps(results))


main()
