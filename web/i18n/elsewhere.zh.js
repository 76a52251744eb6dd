// “其他场合中的正弦编码”一章的中文正文；zh.js 把它并入。富文本同 zh.js。
const r = String.raw;

export default {
  'chapter.elsewhere': '其他场合中的正弦编码',
  'chapter.elsewhere.page': '其他场合中的正弦编码 · 位置编码的计算与讲解',
  'chapter.elsewhere.description':
    '扩散模型的时间步嵌入、视觉 Transformer 的二维 sin-cos 网格和相对位置表：其他约定下的正弦位置编码，逐一计算，并给出重建它们的 NumPy 与 PyTorch 代码。',

  'controls.tsPreset': '时间步预设',
  'controls.flipSinToCos': 'flip_sin_to_cos',
  'controls.freqShift': 'downscale_freq_shift',
  'controls.maxPeriod': 'max_period',
  'controls.tsRange': '时间步范围',
  'controls.gridHeight': '网格高度（图块行数）',
  'controls.gridWidth': '网格宽度（图块列数）',
  'controls.axisOrder': '坐标轴顺序',
  'controls.gridColumn': '显示的列',
  'controls.gridPatch': '选中的图块',
  'controls.patchValue': (row, column) => `第 ${row} 行，第 ${column} 列`,
  'controls.relLength': '序列长度 T（相对位置表）',
  'controls.chunkStart': '分块起点',
  'option.flipSinToCos.false': 'False：[sin | cos]',
  'option.flipSinToCos.true': 'True：[cos | sin]',
  'option.tsRange.1000': '0 … 1000（整数步）',
  'option.tsRange.1': '0 … 1（流匹配）',
  'option.axisOrder.w-h': 'w-h：宽在前（MAE、DiT）',
  'option.axisOrder.h-w': 'h-w：高在前',

  'elsewhereCode.language': '代码',
  'elsewhereCode.copy': '复制',
  'elsewhereCode.copied': '已复制。',
  'elsewhereCode.failed': (message) => `这组设置无法计算：${message}`,

  'timestep.title': '扩散模型的时间步嵌入',
  'timestep.text': r`扩散模型通过时间步 $t$ 把噪声水平告诉网络，$t$ 的嵌入用的正是词元位置的那组正弦函数 {cite:ddpm}：$\text{emb}(t) = [\sin(t\,\omega_i) \mid \cos(t\,\omega_i)]$，$\omega_i = \text{max\_period}^{-i/(h - s)}$，$h = \lfloor d/2 \rfloor$。guided-diffusion {cite:guided-diffusion}、DiT {cite:dit} 和 latent-diffusion 把余弦放在前面并取 $s = 0$；diffusers 的 get_timestep_embedding {cite:diffusers} 默认正弦在前、$s = 1$（即 downscale_freq_shift），Stable Diffusion 的 UNet 又把它设回 0 并交换两半。检查点按 0 训练，却把它设成 1，每个频率都会偏移 {cite:sd-scripts-1187} {cite:diffusers-12791}。频率从 1 降到 $1/\text{max\_period}$，适合 0 … 1000 的 $t$。在 0 … 1 中取 $t$ 的模型（流匹配）若仍用 max_period 10000，最快的一对维度至多转过一弧度，更慢的几乎不动：所有时间步的嵌入几乎是同一个向量，第二幅图给出了量化结果。`,
  'timestep.after': r`下面的代码按当前设置重建热图的各行：先用 diffusers 的公式以 float64 计算，再转为 float32（与核心的算法相同：float64 值舍入）。`,
  'timestep.codeLabel': '时间步嵌入的代码',
  'timestep-embedding.title': '嵌入随 t 的变化',
  'timestep-similarity.title': '与 t = 0 的相似度：0 … 1000 与 0 … 1',
  'timestep-embedding.notice': '把范围切换到 0 … 1：除了开头几列，其余各列都变成平直的条纹，每个时间步的值都一样。',
  'timestep-similarity.notice':
    '比较两条曲线：在 0 … 1000 上相似度降向 0；在 0 … 1 上一直接近 1（具体数值见下方说明）。',

  'grid.title': '二维 sin-cos 网格',
  'grid.text': r`视觉 Transformer 把图像切成 $h \times w$ 个图块。MAE {cite:mae} {cite:mae-code} 和 DiT 给图块 $(r, c)$ 的 $d$ 列中的一半填上 $c$ 的一维正弦编码，另一半填上 $r$ 的，每一半有 $d/4$ 个频率（本章把 $d$ 向下取为 4 的倍数）。于是每一列都是沿一个坐标轴的波，沿另一个轴不变。两个图块的点积是两半各自点积之和，每一半只取决于对应坐标之差（一维的情形见 {ref:offset}），所以点积只取决于二维偏移 $(\Delta r, \Delta c)$。MAE 的代码把两个轴的名字对调了（其网格的第一个坐标是宽）：非正方形网格若把 $h$ 和 $w$ 交换着构造 {cite:mae-18}，图块拿到的是按行读取的 $w \times h$ 网格的坐标，点积就不再只取决于偏移。`,
  'grid.after': r`下面的代码按当前的高、宽和坐标轴顺序重建网格，与 MAE 的 get_2d_sincos_pos_embed 相同：先以 float64 计算，再转为 float32。`,
  'grid.codeLabel': '二维网格的代码',
  'grid-column.title': '把一列画成图像',
  'grid-dots.title': '选中图块与各图块的点积',
  'grid-swapped.title': '同上，但高和宽被交换',
  'grid-column.notice': '移动所显示的列：前一半沿一个轴变化，后一半沿另一个轴变化。',
  'grid-dots.notice': '换一个图块：图案随之平移而形状不变，因为点积只取决于二维偏移。',
  'grid-swapped.notice': '网格不是正方形时，这幅图不是上一幅平移后的样子，下方说明给出了偏差的大小。',

  'relative.title': '相对位置表与流式分块',
  'relative.text': r`相对注意力需要查询与键之间每个偏移的编码，包括负偏移。ESPnet 的 RelPositionalEncoding {cite:espnet} 对 $T$ 帧的序列构造位置 $T - 1$ 降到 $-(T - 1)$ 的各行，Transformer-XL {cite:transformer-xl} 也用递减的位置；流式模型编码的分块从位置 64 而不是 0 开始（ESPnet 的 StreamPositionalEncoding）。这些都不需要新的表：$\sin(-x) = -\sin x$，$\cos(-x) = \cos x$，所以每一行都是从 0 开始的表中的一行（负位置处把正弦取反），分块则是这张表的一段。下方说明用核心算出的表逐一核对。`,
  'relative.after': r`下面的代码重建这张相对位置表（论文的交错约定，位置取 ESPnet 的）。`,
  'relative.codeLabel': '相对位置表的代码',
  'relative-table.notice': '找到中间一行（位置 0）：它上下两侧的行在余弦列上互为镜像。',
};
