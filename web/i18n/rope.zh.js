// 旋转位置编码一章开头与“为什么是 10000”的中文正文；zh.js 把它并入。富文本格式同 zh.js。
const r = String.raw;

export default {
  'controls.ropeDim': '注意力头维度 d（RoPE）',
  'controls.ropeLayout': 'RoPE 布局',
  'controls.ropeLayout.half': '前后对半（rotate_half）',
  'controls.ropeLayout.interleaved': '交错（GPT-J）',
  'controls.context': '上下文长度 L（RoPE）',

  'whyBase.title': '为什么是 10000？',
  'whyBase.text': r`基数决定最慢的波长，约为 $2\pi\cdot\text{base}$；表长 $L$ 和宽度 $d$ 是另外两个独立的选择。实线是相距 $k' \ge k$ 的两行的最大余弦相似度 $s(k')/(d/2)$（$k$ 取自“偏移”控件）：本应区分开的两个位置最多能有多像。基数大时它上升：大多数维度对在整张表内几乎不转，所有行都彼此相像；基数非常小时它也会回升：每一对维度都转过许多圈，相距很远的两行可能又对齐。虚线统计基数太大时被浪费的维度：在 $L$ 行之内转不到 1 弧度的维度占比，即 $(L-1)\,\omega_i < 1$。

Men 等人（2024）{cite:men2024-sinusoidal}为旋转位置编码选基数的准则给出了下限：使所有 $k < L$ 都满足 $s(k) = \sum_i \cos(k\,\omega_i) \ge 0$ 的最小基数，这样在表所覆盖的每个距离上，一个位置与自身的相似度都高于与一个平均位置的相似度。图下的注释给出当前 $d$ 与 $L$ 下的这个值，以及 10000 落在哪里。`,
  'whyBase.posWidth.title': '如果 pos 接近 hidden_units 会怎样？',
  'whyBase.posWidth.text': r`问答帖的第二个回答{cite:qa}留下一个问题：$pos$ 接近 hidden_units（$d$）时会怎样？什么也不会发生：$pos$ 是和波长 $2\pi\cdot\text{base}^{2i/d}$ 比较的，无论 $d$ 是多少，这些波长都从 $2\pi$ 排到接近 $2\pi\cdot\text{base}$；$d$ 只决定有多少对维度分享这个范围。$L$ 与 $d$ 相互独立，尺度由基数决定。`,

  'rope.chapter': '旋转位置编码（RoPE）：旋转而不是相加',
  'rope.intro': r`{ref:rotation} 说明，平移 $k$ 会把每一对维度旋转 $\omega_i k$。旋转位置编码（RoPE，苏剑林等，RoFormer，2021{cite:roformer}）直接使用这个旋转，不再相加：每个查询和键在做点积之前按各自的位置旋转。Llama、Qwen、Mistral、DeepSeek 以及当前的大多数模型都这样做。控制项设定注意力头维度 $d$、布局和上下文长度 $L$；基数即“基数”控制项，与正弦编码一章相同。`,

  'ropeRelative.title': '从相加到旋转',
  'ropeRelative.text': r`RoPE 把位置 $p$ 上查询的第 $i$ 对维度旋转角度 $p\,\omega_i$，$\omega_i = \text{base}^{-2i/d}$：$\mathbf{q}_p = R(p)\,\mathbf{q}$，$\mathbf{k}_{p'} = R(p')\,\mathbf{k}$。旋转可以复合，且 $R(p)^\top = R(-p)$，所以
$$\begin{aligned} \mathbf{q}_p^\top \mathbf{k}_{p'} &= \mathbf{q}^\top R(p)^\top R(p')\,\mathbf{k}\\ &= \mathbf{q}^\top R(p' - p)\,\mathbf{k}.\end{aligned}$$
得分只通过 $p' - p$ 依赖于位置，对任意内容 $\mathbf{q}$、$\mathbf{k}$ 都成立——不像相加的编码那样只对位置部分成立。

图中把一个固定的 $\mathbf{q}$ 和一个固定的 $\mathbf{k}$（随机生成一次）分别旋转到位置 $p$ 和 $p + k$，画出 $\mathbf{q}_p\cdot \mathbf{k}_{p+k}$ 随 $k$ 的变化，取三个起始位置：三条曲线重合。如果演示在每个位置都换一组随机向量，就看不出这一点：得分会随向量变化，而不只随 $k$ 变化。

两种布局把第 $i$ 对放在不同位置。*前后对半*（half：Hugging Face 的 rotate_half、GPT-NeoX、GGML NEOX）把两个分量放在 $i$ 和 $i + d/2$；*交错*（interleaved：GPT-J、GGML NORMAL、RoFormer 论文、Meta 的 Llama 参考代码）放在 $2i$ 和 $2i + 1$。只要把 $W_Q$ 和 $W_K$ 的输出维度重排（第 $i$ 维移到 $2i$，第 $i + d/2$ 维移到 $2i + 1$），两者算出的得分相同；不重排则不同：这就是转换检查点时要重排权重的原因。图注给出两者的差别。`,

  'ropeDecay.title': '远程衰减',
  'ropeDecay.text': r`RoFormer（§3.4.3）{cite:roformer}把得分写成 $d/2$ 对维度上的 $\sum_{i} h_i\, e^{\mathrm{i}\, k\,\omega_i}$，其中 $h_i$ 来自 $\mathbf{q}$ 与 $\mathbf{k}$ 的内容。记 $S_j = \sum_{l<j} e^{\mathrm{i}\, k\,\omega_l}$，用阿贝尔求和（Abel 变换）可得
$$\begin{aligned}\Big|\sum_i h_i\, e^{\mathrm{i}\, k\,\omega_i}\Big| &\le \max_i |h_{i+1} - h_i|\\ &\quad\cdot \sum_j |S_j|,\end{aligned}$$
论文画出相对上界 $\frac{1}{d/2}\sum_{j=1}^{d/2} |S_j|$，它随 $k$ 增大而衰减（远程衰减）：总体上，越远的词元得到的注意力越少。这里把它除以 $k = 0$ 处的值，与 $\mathbf{q} = \mathbf{k} = (1,\dots,1)/\sqrt{d}$ 的实际得分画在一起。

这个得分等于 $\frac{2}{d}\sum_i \cos(k\,\omega_i)$：即 {ref:offset} 正弦表的 $s(k)$ 除以 $d/2$（宽度为 $d$、基数相同；虚线与之重合）。RoPE 的衰减就是正弦编码的 $s(k)$；注释给出两者的吻合程度。`,

  'ropeBase.title': '如何选择基数',
  'ropeBase.text': r`上下文有 $L$ 个词元时，基数至少要多大？Men 等人（2024，“Base of RoPE Bounds Context Length”，arXiv 2405.14591）{cite:men2024}要求：对随机的查询和键取期望，查询对与它相似的键（查询加上少量噪声）的注意力高于对随机的键。在距离 $k$ 处，两个期望得分之差正比于对各维度对的一个求和，因此基数必须使
$$\sum_{i=0}^{d/2-1} \cos\!\big(k\cdot \text{base}^{-2i/d}\big) \ge 0$$
对所有 $k < L$ 成立。苏剑林在《Transformer升级之路：18、RoPE的底数选择原则》{cite:su-base}一文中讨论了这个准则。
曲线给出每个基数所支持的上下文长度：求和首次为负的 $k$。它随基数上升，但并不单调：在某些基数处求和又会跌到 0 以下，所以最小基数（先在细网格上自下而上扫描，再二分；由核心计算）并不在简单二分会停下的地方。$d = 128$、$L = 1024$ 时它约为 $4.3\times10^3$，与 Men 等人给出的数一致。

图中标出 10000（Transformer 论文、Llama 2）、500000（Llama 3）和 $10^6$（Qwen2.5 等），以及它们在当前 $d$ 下支持的上下文长度（见图下注释）。为更长的上下文增大基数，正是“NTK-aware”缩放和长上下文模型的做法；后面几节介绍这些方法。`,
};
