// 旋转位置编码实验台（<posenc-rope-scaling> 与表盘图）的中文字符串：并入 plots.zh.js。
// 每句话都由当前的数值生成。
// Copies of number.js's formatters: a lazily loaded table imports nothing the bundle's entry has (see plots.zh.js).
const n = (value, digits = 3) => {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) return value.toExponential(digits - 1);
  return String(Number(value.toPrecision(digits)));
};
const count = (value) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
// number.js's formatGrouped: the whole part grouped from 1,000 up.
const grouped = (value, digits = 3) => {
  const text = n(value, digits);
  return text.includes('e') ? text : text.replace(/^-?\d+/, count);
};

// A wavelength in positions: grouped whole positions from 1,000 up, else 4 significant digits.
const wavelength = (value) => (value >= 1e3 ? count(Math.round(value)) : n(value, 4));

// A base: grouped digits from 100,000 up (500,000, not 5.00000e+5), else 6 significant digits.
const big = (value) =>
  Math.abs(value) >= 1e5 && Math.abs(value) < 1e15 ? count(Math.round(value)) : grouped(value, 6);

const blendedWords = {
  dynamic: '换用了放大后的底数（混合）',
  longrope: '各自除以列表中自己的因子（混合）',
};

const attentionWords = ({ type, value, given, mscale, mscaleAllDim, factor }) => {
  const v = grouped(value, 6);
  if (given) return `注意力缩放因子：${v}，即配置给定的 attention_factor。`;
  if (type === 'yarn' && mscale && mscaleAllDim)
    return `注意力缩放因子：get_mscale(${grouped(factor, 6)}, ${grouped(mscale, 6)}) / get_mscale(${grouped(factor, 6)}, ${grouped(mscaleAllDim, 6)}) = ${v}。`;
  if (type === 'yarn')
    return factor <= 1
      ? `注意力缩放因子：${v}（factor ≤ 1）。`
      : `注意力缩放因子：0.1·ln(${grouped(factor, 6)}) + 1 = ${v}：cos 和 sin 都乘以它，所以每个 q·k 注意力分数乘以它的平方 ${grouped(value * value, 6)}。`;
  if (type === 'longrope')
    return factor <= 1
      ? `注意力缩放因子：${v}（factor ≤ 1）。`
      : `注意力缩放因子：√(1 + ln ${grouped(factor, 6)} / ln original_max_position_embeddings) = ${v}：cos 和 sin 都乘以它，所以每个 q·k 分数乘以 ${grouped(value * value, 6)}。`;
  return `注意力缩放因子：${v}（${type} 类型不缩放 cos 和 sin）。`;
};

export default {
  'ropeLab.axisPair': '旋转维度对 i',
  'ropeLab.axisWavelength': '波长 2π/ωᵢ（位置数）',
  'ropeLab.legendBefore': '未缩放',
  'ropeLab.kind.kept': '保持不变（外推）',
  'ropeLab.kind.interpolated': '内插（÷ factor）',
  'ropeLab.kind.blended': '混合',
  'ropeLab.guideOriginal': (length) => `原始训练长度 L₀ = ${count(length)}`,
  'ropeLab.guideSeqLen': (length) => `序列长度 ${count(length)}`,
  'ropeLab.guideBand': (name, length) => `L₀/${name} = ${wavelength(length)}`,
  'ropeLab.longropeHeadDim': (pairs, headDim) =>
    `LongRoPE 每个维度对需要一个因子：预设的列表有 ${pairs} 个，所以这里 head_dim 为 ${headDim}。`,
  'ropeLab.kinds': ({ pairs, kept, interpolated, blended, factor, type }) =>
    type === 'default'
      ? `不缩放（rope_type 为 default）：全部 ${pairs} 个维度对保持原频率，超过原始训练长度后，慢的维度对只能外推。`
      : `${pairs} 个维度对中，${kept} 个频率不变（外推：转速与训练时相同），${interpolated} 个除以 factor ${grouped(factor, 6)}（内插），${blended} 个${blendedWords[type] ?? '介于两者之间（混合）'}。`,
  'ropeLab.attention': attentionWords,
  'ropeLab.softmaxScale': (factor, mscaleAllDim, scale) =>
    `DeepSeek-V3 的注意力还把 softmax 的缩放系数乘以 get_mscale(${grouped(factor, 6)}, ${grouped(mscaleAllDim, 6)})² = ${grouped(scale, 6)}：这一步在注意力里，不在旋转位置编码里。`,
  'ropeLab.longropeList': (long, seqLen, original) =>
    long
      ? `seq_len ${count(seqLen)} > original_max_position_embeddings ${count(original)}：使用 long_factor。`
      : `seq_len ${count(seqLen)} ≤ original_max_position_embeddings ${count(original)}：使用 short_factor。`,
  'ropeLab.unseen': ({ original, pairs, fullTurns, firstBefore, firstAfter, position, unseenBefore, unseenAfter }) =>
    fullTurns === pairs
      ? `训练时（位置 0 到 ${count(original - 1)}）全部 ${pairs} 个维度对都转满了一整圈：任何位置的角度都不是新的。`
      : `训练时（位置 0 到 ${count(original - 1)}）${pairs} 个维度对中有 ${fullTurns} 个转满了一整圈，其余 ${pairs - fullTurns} 个没有。不缩放时，第一个出现训练中从未见过的角度的位置是 ${count(firstBefore)}；缩放后是 ${count(firstAfter)}。在位置 ${count(position)}，有 ${unseenAfter} 个维度对的角度是训练中从未见过的（不缩放时为 ${unseenBefore} 个）。这里按圆周上的角度比较：转过整圈后又回到训练弧段内的角度不算新的；落在两个训练位置之间的角度也算见过，位置插值正是依赖这一点。`,
  'ropeLab.dynamicBases': (base, rows) =>
    `动态 NTK 让底数随序列长度 L 增大（rope_theta ${big(base)}）：${rows.map(({ length, base: grown }) => `L = ${count(length)} → ${big(grown)}`).join('，')}。`,
  'ropeLab.describe': ({ pairs, type, shortest, longest, original }) =>
    `${pairs} 个旋转维度对各自的波长（对数坐标），未缩放（圆环）与 ${type} 缩放后（圆点），从 ${wavelength(shortest)} 到 ${wavelength(longest)}，并与原始训练长度 ${count(original)} 对比。`,
  'ropeLab.dialsLegend': (position, original) =>
    `每个表盘是一个维度对在位置 ${count(position)}（序列的最后一个位置）的角度：细指针为未缩放，粗指针为缩放后。阴影是训练范围（位置小于 ${count(original)}）扫过的弧段；粗指针落在阴影之外，就指向一个训练中从未见过的角度。`,
  'ropeLab.odometer': ({ beta, position, turnsSlowest, pairs }) =>
    `把这些表盘连起来读，就是一个 β 进制的里程表，β = rope_theta^(2/d) = ${grouped(beta, 6)}（缩放前）：每个维度对都比前一个慢 β 倍。在位置 ${count(position)}，最慢的维度对（i = ${pairs - 1}）缩放后转了 ${grouped(turnsSlowest, 4)} 圈。`,
  'ropeLab.readoutHint': '把鼠标移到某个维度对上或点按，或聚焦图后用方向键，即可读出它的数值。',
  'ropeLab.readout': ({ pair, wavelengthBefore, wavelengthAfter, factor, kindText, seenShare, original }) =>
    `第 ${pair} 对：波长 ${wavelength(wavelengthBefore)} → ${wavelength(wavelengthAfter)} 个位置（因子 ${grouped(factor, 4)}），${kindText}。${seenShare >= 1 ? `训练（位置小于 ${count(original)}）中它转过了整个圆周。` : `训练（位置小于 ${count(original)}）扫过了它圆周的 ${grouped(100 * seenShare, 3)}%。`}`,
  'ropeLab.dialsDescribe': (pairs, position) =>
    `${pairs} 个表盘，每个旋转维度对一个，显示它在位置 ${count(position)} 未缩放与缩放后的角度。`,
};
