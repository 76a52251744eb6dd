// English prose of the sections on attention, sine and cosine, the training
// length and the FAQ (issue #20). Spread into en.js. Live numbers are in the
// plots' notes (attention-plots.en.js): the prose states no value that a control changes.
const r = String.raw;

export default {
  'attention.title': 'Attention: a head that looks k tokens back',
  'attention.text': r`Attention scores a query position $p$ against every key position $p'$. With the encoding added to the token embeddings $x$, a head with query and key matrices $W_Q$, $W_K$ computes
$$\begin{aligned}\text{score}(p, p') &= (x_p + PE_p)^\top\\ &\quad\; W_Q^\top W_K\,(x_{p'} + PE_{p'}).\end{aligned}$$
Take the positional part alone and let $W_Q^\top W_K = M_k$, the block-diagonal rotation of {ref:rotation}. Since $M_k\,PE_{p'} = PE_{p'+k}$,
$$\begin{aligned}PE_p^\top M_k\,PE_{p'} &= PE_p\cdot PE_{p'+k}\\ &= s(p' + k - p),\end{aligned}$$
largest where $p' = p - k$, **for every $p$**: a head that looks $k$ tokens back. This is what “a linear map that depends only on $k$ is something attention can learn” means.

These plots use the paper's encoding at the current $d$ and base, whatever preset is selected (at odd $d$ with its last column zero). The matrix shows the positional scores of the first positions: the dark red line is $p' = p - k$, the diagonal moved $k$ columns to the left. Under it, the scores of query $p$ over the keys around it and their softmax (scores divided by $\sqrt d$, as in the paper, over the keys shown).

The plain dot product, $W_Q^\top W_K = I$, scores $PE_p\cdot PE_{p'} = s(p' - p)$, and $s$ is symmetric: the key $k$ tokens before and the key $k$ tokens after get the same score, so it cannot tell before from after. $M_k$ is not symmetric ($M_k^\top = M_{-k}$), and it can.

A real input also carries its token: $(x_p + PE_p)^\top M_k (x_{p'} + PE_{p'})$ adds the cross terms $x_p^\top M_k PE_{p'}$, $PE_p^\top M_k x_{p'}$ and $x_p^\top M_k x_{p'}$. The bottom panel adds random token vectors, the same in every run: entries of standard deviation $1/\sqrt d$ (norm about 1), and the same multiplied by $\sqrt d$ as the paper does (norm about $\sqrt d$, larger than $|PE_p| = \sqrt{\lfloor d/2 \rfloor}$). The last note counts for how many queries the best key is still $p - k$. A trained head learns $W_Q$ and $W_K$ for its task; random tokens only show how large the terms it has to work against are.`,
  'attention.matrix': 'Positional scores PEᵀ M_k PE of the first positions',
  'attention-rows.title': 'Attention scores of one query',

  'sineCosine.title': 'Why sine and cosine',
  'sineCosine.text': r`Answer 2 of the Q&A{cite:qa} leaves this open (“I believe they are there to introduce some difference”). Drop one member of each pair and see what breaks. With sines only,
$$\begin{aligned}s_{\sin}(p, k) &= \textstyle\sum_i \sin(\omega_i p)\,\sin(\omega_i (p+k))\\ &= \tfrac12\textstyle\sum_i \cos(\omega_i k)\\ &\quad - \tfrac12\textstyle\sum_i\cos(\omega_i(2p + k)),\end{aligned}$$
and the second sum depends on $p$: the curves from $p$, $p + 100$ and $p + 1000$ part (top plot). With both members the $p$ terms cancel, since $\sin a \sin b + \cos a \cos b = \cos(b - a)$. Cosines alone leave $+\cos(\omega_i(2p + k))$ instead: the same failure.

Nor can any matrix map the sine-only vector of $p$ to that of $p + k$. The shift needs $\sin(\omega(p + k)) = \sin(\omega p)\cos(\omega k) + \cos(\omega p)\sin(\omega k)$, and the cosine is not there to take it from. The plot below fits the best matrix by least squares over the table's positions and shows, per pair, the part of the target it misses; with sine and cosine, $M_k$ misses nothing.

A sine alone is also ambiguous: $\sin\theta = \sin(\pi - \theta)$, so one value fits two angles in every turn. The pair $(\sin\theta, \cos\theta)$ pins the angle down: a point on the circle of {ref:rotation}.`,
  'sine-only.title': 'Sines only: s(k) depends on p',
  'sine-fit.title': 'Sines only: no matrix shifts position',

  'extrapolation.title': 'Beyond the training length',
  'extrapolation.text': r`The paper chose the sinusoids because they “may allow the model to extrapolate to sequence lengths longer than the ones encountered during training” (§3.5){cite:vaswani2017}, and answer 1 of the Q&A{cite:qa} repeats it. The formula does give a vector for every position. But a model trained on sequences of length $L$ has seen positions $0 \dots L-1$ only, and a pair whose wavelength $2\pi/\omega_i$ is longer than that has turned through an arc of its circle, $\omega_i (L-1)$ of $2\pi$. Past $L$ these pairs go on to angles, and to combinations of angles, that no training input had, and nothing in training told the model what to make of them.

The plot takes the table length $L$ as the training length: per pair, the fraction of its circle that positions $0 \dots L-1$ cover, and the turn it has reached at position $p$. Move $p$ past $L$ to see how many pairs are then at angles never seen.

Measured, it goes as this suggests. Press, Smith and Lewis (2021), *Train Short, Test Long* (the ALiBi paper){cite:press2021}, Figure 1: language models with sinusoidal position embeddings, trained on WikiText-103 with sequences of 512 or 1024 tokens, get worse in perplexity as soon as they are evaluated on sequences longer than those; rotary embeddings degrade too, while ALiBi, a penalty on the score that grows with the distance, does not.`,
  'extrapolation.next': 'Next: RoPE puts the rotation M_k into the queries and keys themselves.',

  'faq.title': 'Questions learners ask',
  'faq.add': r`**Add, or concatenate?** The paper adds $PE_p$ to the token embedding. Concatenating would keep position and content in separate dimensions, at the cost of a wider model. Added, they share the $d$ dimensions; random directions in many dimensions are nearly orthogonal (the note under the plot gives the cosine between a token and $PE_p$ at the current $d$), so a linear map such as $W_Q$ or $W_K$ can still respond to one part and hardly to the other.`,
  'faq.learned': r`**Why not learn the position embeddings?** The paper tried{cite:vaswani2017}: Table 3, row (E), “positional embedding instead of sinusoids”, gives perplexity 4.92 and BLEU 25.7 on the English–German development set (newstest2013), against 4.92 and 25.8 for the base model — nearly identical. The authors kept the sinusoids for the hope of extrapolation (previous section). BERT and GPT-2 learn theirs.`,
  'faq.scale': r`**Why multiply the token embeddings by $\sqrt{d_\text{model}}$?** The paper does (§3.4). Embeddings are usually initialised with entries of standard deviation $1/\sqrt d$, which gives a norm of about 1, while $|PE_p| = \sqrt{\lfloor d/2 \rfloor}$: added unscaled, the encoding would dominate. Multiplied by $\sqrt d$ the token has a norm of about $\sqrt d$, comparable to and a little larger than $PE_p$. The plot shows both at position $p$; the note gives the numbers.`,
  'faq.layers': r`**Does position survive through the layers?** Nothing adds it again. It persists because every sub-layer adds its output to its input, $x + \text{Sublayer}(x)$ (the residual stream): the encoding added at the bottom stays part of the sum that every layer reads, unless a layer learns to cancel it. Layer normalisation re-centres and rescales that sum; it does not single the encoding out.`,
  'faq.nope': r`**Can a Transformer do without positional encoding?** With a causal mask, to a surprising degree. Haviv et al. (2022), *Transformer Language Models without Positional Encodings Still Learn Positional Information*{cite:haviv2022}, trained causal language models without any encoding that came close to those with one, and could read the position back out of them: the mask breaks the symmetry, since the token at $p$ sees exactly $p + 1$ tokens (the last note gives the weight an even spread puts on each). Kazemnejad et al. (2023), *The Impact of Positional Encoding on Length Generalization in Transformers*{cite:kazemnejad2023}, found such decoders generalising to longer inputs better than several encodings on their tasks. Without the mask (an encoder such as BERT's) attention treats its input as a set, and position is lost.`,
  'token-scale.title': 'Sizes of the encoding and of a token embedding',
};
