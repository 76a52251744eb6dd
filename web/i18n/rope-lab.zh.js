// 旋转位置编码一章第 4–6 节（上下文扩展实验台、检查我的 RoPE、代码）的中文正文：并入 zh.js。
import { groupDigits as count } from './number.js';
import { formatGrouped as n } from './plots.zh.js';

// A base: grouped digits from 100,000 up (500,000, not 5.00000e+5), else 6 significant digits.
const big = (value) => (Math.abs(value) >= 1e5 && Math.abs(value) < 1e15 ? count(Math.round(value)) : n(value, 6));

const r = String.raw;

// ropeFromConfig 的警告，按代码（web/lib/rope-config.js）。
const warnings = {
  'rope-theta-missing': '配置里没有 rope_theta：按 10000 处理（Llama 2 的 config.json 也没有这一项）。',
  'unknown-scaling-type': '这个 rope 类型不在 posenc 支持的范围内：下面显示的是未缩放的频率。',
  'legacy-type': '“su” 是 Phi-3 对 longrope 的旧称：按 longrope 读取。',
  'yarn-factor-mismatch':
    'yarn 的 factor 与 max_position_embeddings / original_max_position_embeddings 不一致：以 factor 为准。',
  'llama3-fields-missing': 'llama3 缺少某个字段（Hugging Face 会拒绝这样的配置）：该字段按 Llama 3.1 的取值处理。',
  'longrope-factor-length': 'short_factor / long_factor 不是每个旋转维度对一个因子：无法使用。',
  'longrope-depends-on-length': '频率取决于序列长度（short 或 long 因子）：需要给出 seq_len。',
  'dynamic-depends-on-length': '频率取决于序列长度（动态 NTK）：需要给出 seq_len。',
  'odd-rotary-dim': 'partial_rotary_factor 得到奇数个旋转维度：向下取为偶数。',
  'per-layer-rope': '配置里每种层各有一套 RoPE：这里显示全注意力层的那一套。',
  'odd-head-dim': 'head_dim 是奇数：posenc 少旋转一维；Hugging Face 算出 head_dim / 2 + 1/2 个频率，无法两两配对。',
  'local-rope-base': '多数层（滑动窗口层）用 rope_local_base_freq 旋转，且不缩放：这里显示的是全注意力层的值。',
  'text-config': 'RoPE 字段取自 text_config（视觉语言模型）。',
  'interleaved-layout': 'rope_interleave 为 true（DeepSeek-V3）：缓存按交错布局排列。',
};

export default {
  // The lab's fields: Hugging Face's names (config.json keys), the same in every language.
  'controls.ropePreset': '模型配置',
  'controls.ropeType': 'rope_type',
  'controls.headDim': 'head_dim',
  'controls.ropeTheta': 'rope_theta',
  'controls.factor': 'factor',
  'controls.originalMaxPositionEmbeddings': 'original_max_position_embeddings',
  'controls.seqLen': 'seq_len',
  'controls.betaFast': 'beta_fast',
  'controls.betaSlow': 'beta_slow',
  'controls.mscale': 'mscale',
  'controls.mscaleAllDim': 'mscale_all_dim',
  'controls.attentionFactor': 'attention_factor',
  'controls.lowFreqFactor': 'low_freq_factor',
  'controls.highFreqFactor': 'high_freq_factor',
  'ropeLab.title': '上下文扩展实验台',
  'ropeLab.text': r`一个在 $L_0$ 个位置上训练的模型，看到第 $i$ 个旋转维度对转过的角度是 $p\,\omega_i$，$p < L_0$，$\omega_i = \text{rope\_theta}^{-2i/d}$。波长 $2\pi/\omega_i$ 比 $L_0$ 短的维度对转满了整圈，见过所有角度；慢的维度对没有，超过 $L_0$ 之后它们会转到模型从未见过的角度——这就是外推的难处。每一种上下文扩展方法都是在改这把频率的“梯子”：**linear**（位置内插{cite:chen2023-pi}）把每个 $\omega_i$ 除以 factor；**动态 NTK** 随序列长度放大底数；**YaRN**{cite:yarn} 保留在 $L_0$ 内转超过 $\beta_\text{fast}$ 圈的维度对（外推），对转不到 $\beta_\text{slow}$ 圈的做内插，中间线性过渡，并做注意力缩放；**Llama 3**{cite:llama3} 用波长分段（$L_0$/high_freq_factor、$L_0$/low_freq_factor）做同样的事；**LongRoPE**{cite:longrope} 给每个维度对一个搜索出来的因子。

选一个真实模型的配置，或者自己设定各字段（沿用 Hugging Face 的名字{cite:hf-rope-utils}）：图中是每个维度对缩放前（圆环）和缩放后（圆点）的波长，图下的句子说明该方法做了什么，数值都由 posenc 的 ropeFrequencies 计算。`,
  'ropeLab.dialsText': r`同样的维度对画成表盘，每转过一个波长，表盘转一圈。苏剑林{cite:su-beta}把 RoPE 看成一种 $\beta$ 进制编码，$\beta = \text{rope\_theta}^{2/d}$：转得快的表盘是低位，转得慢的是高位。内插就是让高位转得更慢，使它们停留在训练时学过的范围里。`,
  'ropeLab.controls': '实验台设置',
  'ropeLab.presetName.llama2-7b': 'Llama 2 7B（不缩放）',
  'ropeLab.presetName.llama3.1-8b': 'Llama 3.1 8B（llama3）',
  'ropeLab.presetName.qwen2.5-7b-yarn': 'Qwen2.5 7B Instruct + YaRN',
  'ropeLab.presetName.deepseek-v3': 'DeepSeek-V3（YaRN，mscale）',
  'ropeLab.presetName.phi3.5-mini': 'Phi-3.5-mini-instruct（LongRoPE）',
  'ropeLab.sources': r`预设的来源：meta-llama/Llama-2-7b-hf 的 config.json（没有 rope_theta，即 10000）；meta-llama/Llama-3.1-8B 的 config.json；Qwen/Qwen2.5-7B-Instruct 的 config.json 及其模型卡中处理超过 32,768 个词元的 YaRN 配置；deepseek-ai/DeepSeek-V3 的 config.json（qk_rope_head_dim 为 64）；microsoft/Phi-3.5-mini-instruct 的 config.json（48 个 short 因子和 48 个 long 因子）。这里读不到 Phi-3-mini-128k 自己的 config.json，所以用它的后继 Phi-3.5-mini 代表 LongRoPE。`,
  'ropeLab.invalid': (name, message) => `${name}：${message}。`,
  'ropeLab.failed': (message) => `这组设置无法计算：${message}`,

  'ropeCheck.title': '检查我的 RoPE',
  'ropeCheck.text': r`粘贴一个模型的 config.json：posenc 的 ropeFromConfig 按 Hugging Face 的方式读取其中的 RoPE 字段，下面列出频率、注意力缩放因子和每一条警告。也可以给出一个 cos 或 sin 缓存（.npy、CSV 或 JSON，每行一个位置）：页面会在能解释这些数值时，说出它的布局、底数、缩放方式和数据类型。粘贴的内容不会离开你的浏览器。`,
  'ropeCheck.configLabel': 'config.json',
  'ropeCheck.configButton': '读取配置',
  'ropeCheck.cacheLabel': 'cos 或 sin 缓存（.npy、CSV、JSON）',
  'ropeCheck.cacheText': '或粘贴其数值',
  'ropeCheck.cacheButton': '识别缓存',
  'ropeCheck.configTooLong': (limit) => `无法读取配置：超过 ${count(limit)} 个字符。`,
  'ropeCheck.configField': ({ field, missing }) =>
    missing ? `无法读取配置：缺少 ${field}。` : `无法读取配置：${field} 的值无法使用。`,
  'ropeCheck.configNotJson': '无法读取配置：粘贴的文本不是合法的 JSON。',
  'ropeCheck.configRefused': '无法读取配置：posenc 无法由这些字段算出 RoPE。',
  'ropeCheck.originalMessage': '英文原始信息',
  'ropeCheck.config': ({ type, headDim, rotaryDim, base, attentionFactor, invFreq }) =>
    `RoPE 类型 ${type}，head_dim ${headDim}（${rotaryDim} 个旋转维度），rope_theta ${big(base)}，注意力缩放因子 ${n(attentionFactor, 6)}。共 ${invFreq.length} 个逆频率，从 ${n(invFreq[0], 6)}（波长 ${n((2 * Math.PI) / invFreq[0], 4)}）到 ${n(invFreq[invFreq.length - 1], 6)}（波长 ${n((2 * Math.PI) / invFreq[invFreq.length - 1], 6)}）。`,
  'ropeCheck.context': ({ max, factor, original, covered, ratio, firstUnseen, unseen, pairs }) =>
    `max_position_embeddings ${count(max)} = ${ratio === 1 ? '' : `${n(ratio, 4)} × `}factor·L₀（factor ${n(factor, 6)} × original_max_position_embeddings ${count(original)} = ${count(covered)}）。${
      firstUnseen >= max
        ? `小于 ${count(max)} 的位置都不会让任何维度对转到训练中没见过的角度。`
        : `从位置 ${count(firstUnseen)} 起，慢的维度对会转到训练中从未见过的角度：在位置 ${count(max - 1)}，${pairs} 个维度对中有 ${unseen} 个落在训练扫过的弧之外。`
    }`,
  'ropeCheck.warning': (code, message) => warnings[code] ?? message,
  'ropeCheck.noWarnings': '没有警告：每个 RoPE 字段都按原样读取。',
  'ropeCheck.useInLab': '在实验台中查看',
  'ropeCheck.cacheReading': (name) => `正在读取 ${name}……`,
  'ropeCheck.cacheIdentifying': (name) => `正在读取 ${name} 中的数字并识别缓存……`,
  'ropeCheck.cacheFailed':
    '缓存检查未能启动或意外停止：其脚本或 WebAssembly 核心没有加载成功。请点击“重试”或刷新页面。',
  'ropeCheck.cacheError': (message) => `无法读取缓存：${message}`,
  'ropeCheck.cacheShape': (rows, columns, dtype) =>
    `${count(rows)} 个位置 × ${columns} 列${dtype ? `，${dtype}` : ''}。`,
  'ropeCheck.verdict': ({ kind, layout, rotaryDim, base, type, factor, attentionFactor, dtype, error }) =>
    `这是一个 ${kind} 缓存，${layout === 'half' ? '前后两半布局（rotate_half、GPT-NeoX）' : '交错布局（GPT-J、RoFormer）'}，${rotaryDim} 个旋转维度：rope_theta ${big(base)}，${type === 'default' ? '不缩放' : `${type} 缩放${factor ? `，factor ${n(factor, 4)}` : ''}`}，注意力缩放因子 ${n(attentionFactor, 6)}，数据类型 ${dtype}；posenc 重建它的误差在 ${n(error, 2)} 以内。`,
  'ropeCheck.partial': ({ kind, layout, rotaryDim, base, error }) =>
    `这是一个 ${kind} 缓存，${layout === 'half' ? '前后两半布局（rotate_half）' : '交错布局'}，${rotaryDim} 个旋转维度。它的频率不符合 posenc 已知的任何缩放方式；最接近的普通频率梯子 rope_theta 为 ${n(base, 6)}，误差 ${n(error, 2)}。`,
  'ropeCheck.unknown': (reason) => `posenc 无法把它解释为 RoPE 缓存：${reason}`,
  'ropeCheck.reason.pairs': '没有哪一列能与另一列配成一对（既不是前后两半布局，也不是交错布局）。',
  'ropeCheck.reason.start': '第一行不是位置 0（cos 为常数，sin 为 0）。',
  'ropeCheck.reason.shape': '至少需要 3 行，列数须为偶数。',
  'ropeCheck.reason.rows': ({ rowsNeeded }) =>
    `行数太少，无法判断缩放方式（几种缩放对这些行同样吻合）：请给出从位置 0 起约 ${count(rowsNeeded)} 行。`,

  'ropeCode.title': '代码',
  'ropeCode.text': r`下面的代码按 Hugging Face 的公式{cite:hf-rope-utils}以 float64 重建实验台当前设置的 inv_freq、注意力缩放因子和 cos/sin 缓存（NumPy 版本在项目的测试里与 posenc 逐项比对）。`,
  'ropeCode.language': '语言',
  'ropeCode.length': '缓存长度（位置数）',
  'ropeCode.copy': '复制',
  'ropeCode.copied': '已复制。',
};
