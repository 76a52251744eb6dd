// 精度一节的中文正文（并入 zh.js）。
const r = String.raw;

export default {
  'controls.precision': '数值格式（半精度）',
  'precision.title': '半精度：float16 与 bfloat16 对角度做了什么',
  'precision.text': r`各框架很少用 float64 计算这张表。位置、逆频率以及二者的乘积 $pos\cdot\omega_i$ 都以模型的数据类型存放，每一步都舍入到最近值（平局取偶）。于是角度的误差可达该量级上相邻可表示数间距的一半：半精度 float16 只有 11 位有效位，1024 到 2048 之间的角度只能是整数，误差可达 0.5 弧度；bfloat16 只有 8 位，误差可达 4 弧度——已是 $\sin$、$\cos$ 一个周期的很大一部分。位置本身也会重合：bfloat16 分不清 256 和 257，float16 分不清 2048 和 2049，并把 65520 变成 $\infty$。

下方的图是位置、频率和角度都用所选格式（控件“数值格式（半精度）”）计算的编码表减去精确表，由 posenc 的核心实时计算，每一步都像框架的类型转换那样舍入。图下是重算的已报告案例：EleutherAI/gpt-neox 议题 #1003{cite:gpt-neox-1003}（由 PR #1041{cite:gpt-neox-1041} 修复，它同时处理了 #1016{cite:gpt-neox-1016}）、bfloat16 位置（Hugging Face transformers PR #29285{cite:transformers-29285} 与 #29496{cite:transformers-29496} 让 RoPE 保持单精度 float32），以及 huggingface/diffusers 议题 #13920{cite:diffusers-13920}（由 PR #13922{cite:diffusers-13922} 修复）：autocast 把 65536 以上位置的 float32 矩阵乘法改用 bfloat16 执行。`,
  'precision.fix': r`**怎么办：**关闭 autocast，用单精度 float32（最好 float64）计算位置、频率和角度，求出 $\sin$ 和 $\cos$ 之后，只把结果转换为模型的数据类型。float32 角度的误差仍可达角度的约 $2^{-23}$，因为 inv_freq 先舍入为 float32，乘积又舍入一次（在位置 8192 处约 $10^{-3}$ 弧度），但远小于半精度造成的误差。在 posenc 中，positionDtype、frequencyDtype、exponentDtype 和 angleDtype 这几个参数可以复现上述任何一种计算路径（见 docs/precision.md）。`,
};
