// 精度图（<posenc-precision>，embed plot=precision）的中文字符串，并入 plots.zh.js。
// 以数字格式化函数为参数，本表不导入任何模块。
export default (n) => ({
  'precision.legend': (unit) => `误差 / ${n(unit)}`,
  'precision.readout': (position, column, value) => `p = ${position}，j = ${column}：误差 ${n(value, 4)}`,
  'precision.describe': ({ rows, columns, min, max, format }) =>
    `位置、频率和角度都用 ${format} 计算的编码表减去精确表的误差图：${rows} 个位置 × ${columns} 个维度，误差从 ${n(min)} 到 ${n(max)}。误差随位置增大，在变化快的低维度最大。`,
  'precision.factsCaption': (length) => `各格式（位置、频率、角度都用该格式；即上方的表，L = ${length}）`,
  'precision.col.format': '格式',
  'precision.col.collision': '最先重合的位置',
  'precision.col.overflow': '溢出',
  'precision.col.largest': 'L 以内的最大误差',
  'precision.collision': (p) => `${p} = ${p + 1}`,
  'precision.overflow': (p) => `从 ${p} 起：∞（值为 NaN）`,
  'precision.noOverflow': '无',
  'precision.largest': ({ value, position, column }) => `${n(value)}（p = ${position}，j = ${column}）`,
  'precision.mapLargest': ({ format, value, position, column, length }) =>
    `用 ${format} 计算时，L = ${length} 以内的最大误差为 ${n(value)}，位于 p = ${position}，j = ${column}（已标出）。`,
  'precision.neox': ({
    position,
    feature,
    frequency,
    halfFrequency,
    exactAngle,
    halfAngle,
    exactCos,
    halfCos,
    largest,
    float32Largest,
  }) =>
    `gpt-neox #1003（float16，每头维度 32）：在位置 ${position}、特征 ${feature} 处，角度 ${position} × ${n(frequency, 6)} = ${n(exactAngle, 8)}，在 float16 中变成 ${position} × ${n(halfFrequency, 6)} → ${n(halfAngle, 8)}，cos 为 ${n(halfCos, 4)} 而不是 ${n(exactCos, 4)}。整个 2048 × 32 缓存中 cos 的最大误差：${n(largest.value, 4)}（位置 ${largest.position}，特征 ${largest.feature}）；各步改用 float32：${n(float32Largest)}。`,
  'precision.bfloat16': ({ exactDifference, roundedDifference }) =>
    `bfloat16 位置：精确计算时第 256 行与第 257 行最多相差 ${n(exactDifference)}；位置用 bfloat16 表示时相差 ${n(roundedDifference)}（257 舍入为 256）。`,
  'precision.diffusers': ({ length, start, distinct, exactDistinct, largest, float32Largest }) =>
    `diffusers #13920（autocast 下的 bfloat16）：从 ${start} 起的 ${length} 个位置只得到 ${distinct} 种不同的缓存行（精确计算为 ${exactDistinct} 种），cos 误差最大 ${n(largest)}。改用 float32 计算角度（修复 PR #13922）：${n(float32Largest)}。`,
});
