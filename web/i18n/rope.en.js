// English prose of the RoPE chapter's beginning and of "why 10000"; en.js
// spreads it in. Rich texts as in en.js.
const r = String.raw;

export default {
  'controls.ropeDim': 'Head dimension d (RoPE)',
  'controls.ropeLayout': 'RoPE layout',
  'controls.ropeLayout.half': 'half (rotate_half, GPT-NeoX)',
  'controls.ropeLayout.interleaved': 'interleaved (GPT-J, RoFormer)',
  'controls.context': 'Context L (RoPE)',

  'whyBase.title': 'Why 10000?',
  'whyBase.text': r`The base sets the slowest wavelength, about $2\pi\cdot\text{base}$; the table's length $L$ and width $d$ are separate choices. The solid curve is the largest cosine similarity $s(k')/(d/2)$ of two rows $k' \ge k$ apart ($k$ from the Offset control): how alike two positions that should be told apart can look. It climbs for a large base, where most pairs barely turn across the table and all its rows look alike; and it rises again for a very small base, where every pair turns through many periods and distant rows can line up again. The dashed curve counts the dimensions a large base wastes: the share that turn less than one radian across the $L$ rows, $(L-1)\,\omega_i < 1$.

The criterion of Men et al. (2024){cite:men2024-sinusoidal} for a RoPE base gives a lower end: the smallest base for which $s(k) = \sum_i \cos(k\,\omega_i) \ge 0$ for every $k < L$, so that a position stays more similar to itself than to an average one at every distance the table holds. The notes below the plot give it for the current $d$ and $L$, and where 10000 falls.`,
  'whyBase.posWidth.title': 'What if pos comes close to hidden_units?',
  'whyBase.posWidth.text': r`The Q&A's second answer{cite:qa} asks what happens when $pos$ comes close to hidden_units ($d$). Nothing special: $pos$ is compared with the wavelengths $2\pi\cdot\text{base}^{2i/d}$, which run from $2\pi$ to almost $2\pi\cdot\text{base}$ whatever $d$ is; $d$ only sets how many pairs share that range. $L$ and $d$ are independent; the base sets the scale.`,

  'rope.chapter': 'RoPE: rotating instead of adding',
  'rope.intro': r`{ref:rotation} showed that a shift by $k$ turns every pair by $\omega_i k$. Rotary position embedding (RoPE; Su et al., RoFormer, 2021{cite:roformer}) uses exactly that rotation, and nothing is added: each query and key is rotated by its own position before the dot product. Llama, Qwen, Mistral, DeepSeek and most current models do this. The controls set the head dimension $d$, the layout and the context $L$; the base is the Base control's, as in the sinusoidal chapter.`,

  'ropeRelative.title': 'From adding to rotating',
  'ropeRelative.text': r`RoPE turns pair $i$ of a query at position $p$ by the angle $p\,\omega_i$, $\omega_i = \text{base}^{-2i/d}$: $\mathbf{q}_p = R(p)\,\mathbf{q}$ and $\mathbf{k}_{p'} = R(p')\,\mathbf{k}$. Rotations compose and $R(p)^\top = R(-p)$, so
$$\begin{aligned} \mathbf{q}_p^\top \mathbf{k}_{p'} &= \mathbf{q}^\top R(p)^\top R(p')\,\mathbf{k}\\ &= \mathbf{q}^\top R(p' - p)\,\mathbf{k}.\end{aligned}$$
The score depends on the positions only through $p' - p$, for any query and key contents, not only for a positional part as with an added encoding.

The plot rotates one fixed $\mathbf{q}$ and one fixed $\mathbf{k}$ (random, drawn once) to positions $p$ and $p + k$ and draws $\mathbf{q}_p\cdot \mathbf{k}_{p+k}$ against $k$, from three starting positions: the curves coincide. A demo that draws different random vectors at every position cannot show this: its scores change with the vectors, not only with $k$.

Two layouts place pair $i$ differently. *half* (Hugging Face's rotate_half, GPT-NeoX, GGML NEOX) puts its two members at $i$ and $i + d/2$; *interleaved* (GPT-J, GGML NORMAL, the RoFormer paper, Meta's Llama reference code) at $2i$ and $2i + 1$. They compute the same scores once the output dimensions of $W_Q$ and $W_K$ are permuted, dimension $i$ to $2i$ and dimension $i + d/2$ to $2i + 1$, and different ones without it: that is why converted checkpoints permute their weights. The caption measures both.`,

  'ropeDecay.title': 'Long-term decay',
  'ropeDecay.text': r`RoFormer (§3.4.3){cite:roformer} writes the score as $\sum_{i} h_i\, e^{\mathrm{i}\, k\,\omega_i}$ over the $d/2$ pairs, with $h_i$ from the contents of $\mathbf{q}$ and $\mathbf{k}$. Abel summation with $S_j = \sum_{l<j} e^{\mathrm{i}\, k\,\omega_l}$ bounds it:
$$\begin{aligned}\Big|\sum_i h_i\, e^{\mathrm{i}\, k\,\omega_i}\Big| &\le \max_i |h_{i+1} - h_i|\\ &\quad\cdot \sum_j |S_j|,\end{aligned}$$
and the paper plots the relative upper bound $\frac{1}{d/2}\sum_{j=1}^{d/2} |S_j|$, which decays as $k$ grows (long-term decay): distant tokens are, on the whole, attended less. Drawn here divided by its value at $k = 0$, beside the actual score of $\mathbf{q} = \mathbf{k} = (1,\dots,1)/\sqrt{d}$.

That score is $\frac{2}{d}\sum_i \cos(k\,\omega_i)$: the sinusoidal table's $s(k)$ of {ref:offset} divided by $d/2$, at width $d$ and the same base (dashed, on top of it). RoPE's decay is the sinusoidal encoding's $s(k)$; the notes measure the agreement.`,

  'ropeBase.title': 'Choosing the base',
  'ropeBase.text': r`How large must the base be for a context of $L$ tokens? Men et al. (2024, “Base of RoPE Bounds Context Length”, arXiv 2405.14591){cite:men2024} ask that, in expectation over random queries and keys, a query attend more to a key similar to it (the query plus small noise) than to a random key. At distance $k$ the difference of the two expected scores is proportional to a sum over the pairs, so the base must keep
$$\sum_{i=0}^{d/2-1} \cos\!\big(k\cdot \text{base}^{-2i/d}\big) \ge 0$$
for every $k < L$. Su Jianlin discusses the criterion in a blog post on choosing RoPE's base (in Chinese){cite:su-base}.
For each base the curve shows the context it supports: the first $k$ where the sum turns negative. It rises with the base, but not steadily: the sum dips below zero again at some bases, so the smallest base (first scanned upwards on a fine grid, then bisected; computed by the core) is not where a simple bisection would land. At $d = 128$ and $L = 1024$ it is about $4.3\cdot10^3$, the figure Men et al. report.

Marked: 10000 (the Transformer paper, Llama 2), 500000 (Llama 3) and $10^6$ (Qwen2.5, and others), with the contexts they support at the current $d$ (notes below). Raising the base for a longer context is what “NTK-aware” scaling and the long-context models do; the next sections show the methods.`,
};
