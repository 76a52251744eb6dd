// 注意力、正弦与余弦、训练长度和常见问题各节的中文正文（issue #20），并入 zh.js。
// 随控件变化的数值都在图下的注释里（attention-plots.zh.js），正文不写这类数值。
const r = String.raw;

export default {
  'attention.title': '注意力：一个回看 k 个词元的头',
  'attention.text': r`注意力拿查询位置 $p$ 与每个键位置 $p'$ 打分。位置编码加到词元嵌入 $x$ 上之后，查询矩阵为 $W_Q$、键矩阵为 $W_K$ 的一个注意力头计算
$$\begin{aligned}\text{score}(p, p') &= (x_p + PE_p)^\top\\ &\quad\; W_Q^\top W_K\,(x_{p'} + PE_{p'}).\end{aligned}$$
只看位置部分，并取 $W_Q^\top W_K = M_k$（{ref:rotation} 的分块对角旋转矩阵）。由于 $M_k\,PE_{p'} = PE_{p'+k}$，
$$\begin{aligned}PE_p^\top M_k\,PE_{p'} &= PE_p\cdot PE_{p'+k}\\ &= s(p' + k - p),\end{aligned}$$
它在 $p' = p - k$ 处最大，**对每个 $p$ 都如此**：这个头总是回看 $k$ 个词元。这就是“只取决于 $k$ 的线性映射，注意力是可以学到的”的具体含义。

这几张图用论文的位置编码，取当前的 $d$ 和 base，与所选预设无关（$d$ 为奇数时最后一列置零）。矩阵画出前若干位置的位置得分：深红色的线就是 $p' = p - k$，即把对角线向左移 $k$ 列。下面是查询 $p$ 对其附近各键的得分，以及它们的 softmax（与论文一样先除以 $\sqrt d$，只在图中这些键上归一化）。

普通点积（$W_Q^\top W_K = I$）的得分是 $PE_p\cdot PE_{p'} = s(p' - p)$，而 $s$ 是对称的：前面第 $k$ 个键和后面第 $k$ 个键得分相同，所以它分不清前后。$M_k$ 不对称（$M_k^\top = M_{-k}$），它分得清。

真实的输入还带着词元本身：$(x_p + PE_p)^\top M_k (x_{p'} + PE_{p'})$ 多出交叉项 $x_p^\top M_k PE_{p'}$、$PE_p^\top M_k x_{p'}$ 和 $x_p^\top M_k x_{p'}$。最下面一栏加上随机词元向量（每次运行都相同）：分量标准差为 $1/\sqrt d$（范数约为 1），以及像论文那样再乘以 $\sqrt d$（范数约为 $\sqrt d$，比 $|PE_p| = \sqrt{\lfloor d/2 \rfloor}$ 大）。最后一条注释统计有多少个查询的最佳键仍是 $p - k$。训练出来的头会为自己的任务学习 $W_Q$ 和 $W_K$；随机词元只是显示它要对付的交叉项有多大。`,
  'attention.matrix': '前若干位置的位置得分 PEᵀ M_k PE',
  'attention-rows.title': '一个查询的注意力得分',

  'sineCosine.title': '为什么既要正弦又要余弦',
  'sineCosine.text': r`问答中的回答 2{cite:qa} 没有回答这个问题（“我相信他们的存在是为了引起一些差异”）。把每对中的一个去掉，看看什么会坏掉。只保留正弦时，
$$\begin{aligned}s_{\sin}(p, k) &= \textstyle\sum_i \sin(\omega_i p)\,\sin(\omega_i (p+k))\\ &= \tfrac12\textstyle\sum_i \cos(\omega_i k)\\ &\quad - \tfrac12\textstyle\sum_i\cos(\omega_i(2p + k)),\end{aligned}$$
其中第二个和依赖于 $p$：从 $p$、$p + 100$、$p + 1000$ 出发的曲线彼此分开（上图）。两者都在时，含 $p$ 的项相互抵消，因为 $\sin a \sin b + \cos a \cos b = \cos(b - a)$。只保留余弦则剩下 $+\cos(\omega_i(2p + k))$，同样失败。

也没有任何矩阵能把 $p$ 的纯正弦向量映射成 $p + k$ 的。平移需要 $\sin(\omega(p + k)) = \sin(\omega p)\cos(\omega k) + \cos(\omega p)\sin(\omega k)$，而余弦不在向量里，无从取得。下图在表中各位置上用最小二乘拟合最好的矩阵，逐对画出它没能拟合的那部分；正弦和余弦都在时，$M_k$ 一点也不差。

单独的正弦还有歧义：$\sin\theta = \sin(\pi - \theta)$，每转一圈有两个角对应同一个值。一对 $(\sin\theta, \cos\theta)$ 才能确定角度，即 {ref:rotation} 圆上的一个点。`,
  'sine-only.title': '只用正弦：s(k) 依赖于 p',
  'sine-fit.title': '只用正弦：没有矩阵能平移位置',

  'extrapolation.title': '超出训练长度',
  'extrapolation.text': r`论文选择正弦编码，是因为它“可能让模型外推到比训练中遇到的更长的序列”（§3.5）{cite:vaswani2017}，问答中的回答 1{cite:qa} 也引用了这句话。公式确实对任何位置都给出一个向量。但在长度为 $L$ 的序列上训练的模型只见过位置 $0 \dots L-1$；波长 $2\pi/\omega_i$ 比这更长的一对维度，在训练中只转过了圆上的一段弧，即 $2\pi$ 中的 $\omega_i (L-1)$。超过 $L$ 之后，这些维度对会转到训练输入从未有过的角度（以及角度组合），训练中没有任何东西告诉模型该如何处理它们。

下图把表长 $L$ 当作训练长度：逐对画出位置 $0 \dots L-1$ 覆盖了圆周的多少，以及在位置 $p$ 时转到了哪里。把 $p$ 拖过 $L$，看看有多少对维度处在从未见过的角度。

实测结果与此一致。Press、Smith 和 Lewis（2021）的《Train Short, Test Long》（即 ALiBi 论文）{cite:press2021}图 1：在 WikiText-103 上用 512 或 1024 个词元的序列训练、使用正弦位置嵌入的语言模型，一旦评估序列超过训练长度，困惑度就变差；旋转位置编码同样变差，而 ALiBi（在得分上减去随距离线性增长的惩罚）则没有。`,
  'extrapolation.next': '下一章：RoPE 把旋转 M_k 直接放进查询和键里。',

  'faq.title': '学习者常问的问题',
  'faq.add': r`**相加还是拼接？** 论文把 $PE_p$ 加到词元嵌入上。拼接能让位置和内容各占不同的维度，代价是模型更宽。相加时两者共用 $d$ 个维度；在高维空间里随机方向几乎正交（图下的注释给出当前 $d$ 下一个词元与 $PE_p$ 夹角的余弦），所以 $W_Q$、$W_K$ 这样的线性映射仍可以只对其中一部分有反应，而几乎不理会另一部分。`,
  'faq.learned': r`**为什么不学习位置嵌入？** 论文试过{cite:vaswani2017}：表 3 的 (E) 行“用位置嵌入代替正弦”，在英德开发集（newstest2013）上困惑度为 4.92、BLEU 为 25.7，基础模型则是 4.92 和 25.8，几乎相同。作者保留正弦编码，是寄希望于外推（上一节）。BERT 和 GPT-2 的位置嵌入都是学出来的。`,
  'faq.scale': r`**为什么词元嵌入要乘以 $\sqrt{d_\text{model}}$？** 论文这样做（§3.4）。嵌入通常以标准差 $1/\sqrt d$ 初始化，范数约为 1，而 $|PE_p| = \sqrt{\lfloor d/2 \rfloor}$：不乘就相加，位置编码会占主导。乘以 $\sqrt d$ 后词元的范数约为 $\sqrt d$，与 $PE_p$ 相当而略大。图中画出位置 $p$ 的两者，注释给出具体数值。`,
  'faq.layers': r`**位置信息能穿过各层保留下来吗？** 没有哪一层再把它加一遍。它之所以保留，是因为每个子层都把输出加到输入上，即 $x + \text{Sublayer}(x)$（残差流）：底部加入的编码始终是各层所读的和的一部分，除非某层学会把它抵消。层归一化会对这个和重新居中、缩放，但不会单独去掉位置编码。`,
  'faq.nope': r`**Transformer 能不用位置编码吗？** 有因果掩码时，在相当程度上可以。Haviv 等人（2022）的《Transformer Language Models without Positional Encodings Still Learn Positional Information》{cite:haviv2022}训练了不带任何位置编码的因果语言模型，效果接近带编码的模型，而且能从中读出位置：掩码打破了对称性，位置 $p$ 的词元恰好能看到 $p + 1$ 个词元（最后一条注释给出均匀分配时每个词元得到的权重）。Kazemnejad 等人（2023）的《The Impact of Positional Encoding on Length Generalization in Transformers》{cite:kazemnejad2023}发现，在他们的任务上，这样的解码器外推到更长输入时比几种位置编码都好。没有掩码时（如 BERT 那样的编码器），注意力把输入当作集合，位置就丢失了。`,
  'token-scale.title': '位置编码与词元嵌入的大小',
};
