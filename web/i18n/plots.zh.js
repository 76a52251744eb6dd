// 图、元素与 embed.html 的中文字符串（与 plots.en.js 键相同）：元素包显示的一切。
// 讲解页自己的正文在 zh.js，其中包含这些。
import precisionPlots from './precision-plots.zh.js';

// A copy of number.js's formatNumber (tests/js/i18n/strings.test.js checks that they
// agree): a lazily loaded table imports nothing the bundle's entry has, or the
// bundler splits that module into a chunk of its own, one more request at
// every first load.
import ropePlots from './rope-plots.zh.js';
import elsewherePlots from './elsewhere-plots.zh.js';
import ropeLab from './rope-lab-plots.zh.js';
import attention from './attention-plots.zh.js';

export const formatNumber = (value, digits = 3) => {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) return value.toExponential(digits - 1);
  return String(Number(value.toPrecision(digits)));
};
/** A copy of number.js's formatGrouped, for the same reason. */
export const formatGrouped = (value, digits = 3) => {
  const text = formatNumber(value, digits);
  return text.includes('e') ? text : text.replace(/^-?\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));
};
/** A copy of number.js's formatDifference, for the same reason. */
export const formatDifference = (value, digits = 2) =>
  value === 0 ? '0' : Math.abs(value) >= 1e-3 ? formatNumber(value, digits) : value.toExponential(digits - 1);
const n = formatNumber;

/** 以度表示的角，转过整圈时说明转了几圈。 */
function turns(angle) {
  const whole = Math.floor(angle / (2 * Math.PI));
  const degrees = n(((angle / (2 * Math.PI)) % 1) * 360, 3);
  return whole === 0 ? `${degrees}°` : `${whole} 整圈又 ${degrees}°`;
}

const kinds = { sin: 'sin', cos: 'cos', zero: '零列' };

export default {
  ...precisionPlots(n),
  ...elsewherePlots,
  ...ropePlots,
  ...ropeLab,
  ...attention,
  'heatmap.legend': 'PE 值',
  'heatmap.hint': '把鼠标移到表上或点按，或聚焦后用方向键。',
  'heatmap.describe': ({ rows, columns, min, max, sinusoidal, layout }) =>
    `位置编码表热图：${rows} 个位置（行）× ${columns} 个维度（列），数值从 ${n(min)} 到 ${n(max)}。${sinusoidal ? `${layout === 'concat' ? '在每一半中，' : ''}靠前的维度逐行快速正负交替，靠后的维度变化缓慢。` : ''}`,

  'heatmap.cover': ({ rows, columns }) =>
    `表格的单元格比图中的像素多：每个像素显示它所覆盖的${rows === 1 ? '' : ` ${rows} 行 ×`} ${columns} 列单元格的平均颜色${rows > 1 ? '；在这几行之内就在 −1 与 1 之间摆动的列会平均成一片平淡的中间色（悬停可读出单元格的值，或减小 L 以看到逐行的变化）' : ''}。`,
  'waves.panel': ({ column, kind, wavelength }) =>
    `j = ${column} · ${kinds[kind]}${Number.isFinite(wavelength) ? ` · 周期 ${n(wavelength, 4)}` : ''}`,
  'waves.describe': ({ panels, from, to, sinusoidal }) =>
    `表中若干列在位置 ${from} 到 ${to} 上的曲线：${panels.map((p) => p.label).join('；')}。${sinusoidal === false ? '' : '靠前的维度振荡快，靠后的维度几乎不动。'}`,

  'ladder.empty': '此约定下没有任何一列有固定频率。',
  'ladder.describe': ({ shortest, longest, count, layout }) =>
    count === 0
      ? '此约定下没有列具有固定波长。'
      : `${count} 列的波长（对数坐标），从 ${n(shortest)} 到 ${n(longest)}，${layout === 'concat' ? '每一半各' : ''}呈一条上升的直线：等比数列。`,

  'row.zero': '位置 0',
  'row.at': (p, beyond) => `p = ${p}${beyond ? '（超出 L：外推）' : ''}`,
  'row.beyond': (q, length) => `p + L = ${q}（超出 L = ${length}）`,
  'row.describe': ({ rows }) =>
    `编码的 ${rows.length} 行的火柴杆图（stem 图），每个维度一个值：${rows.map((r) => r.label).join('；')}。`,

  'sensitivity.change': (p) => `|PE(${p + 1}, j) − PE(${p}, j)|`,
  'sensitivity.bound': (amplitude = 1) => (amplitude === 1 ? '上界 ω_j' : `上界 ${n(amplitude)}·ω_j`),
  'sensitivity.describe': ({ columns, largest, smallest, withinBound }) =>
    `${columns} 个维度在位置前进一步时的变化量（对数坐标），从 ${n(largest)} 降到 ${n(smallest)}${
      withinBound === null
        ? '；此约定下各列没有固定频率，因此没有上界可比。'
        : withinBound
          ? '；都不超过该维角频率给出的上界。'
          : '；有些维度超过了其角频率给出的上界。'
    }`,

  'rotation.start': (p) => `p = ${p}`,
  'rotation.end': (q) => `p + k = ${q}`,
  'rotation.angle': ({ pair, frequency, offset, angle }) =>
    `第 i = ${pair} 对，ω_i = ${n(frequency, 4)}：k = ${offset} 使它转过 ω_i·k = ${n(angle, 4)} 弧度（${turns(angle)}）。`,
  'rotation.noAngle': ({ pair }) => `第 i = ${pair} 对：此约定下它的 sin 和 cos 频率不同，不存在单一的转角。`,
  'rotation.residual': ({ residual, dModel, radius = 1, lone = null }) =>
    `${lone ? `成对的 ${dModel - 1} 个维度` : `全部 ${dModel} 个维度`}上 max |PE(p+k) − M_k·PE(p)| = ${formatDifference(residual, 3)}${residual < 1e-5 * radius ? '——舍入误差：等式成立。' : '——远非零：等式在此不成立。'}${lone ? `第 ${dModel - 1} 维是奇数 d 的最后一列，是单独的 ${lone}，缺少配对的另一半：没有旋转能映射它，所以在这一维上 PE(p+k) 不等于 M_k·PE(p)。` : ''}`,
  'rotation.zeroColumn': ({ column, pair }) =>
    `第 ${column} 列是奇数 d 的零列，不属于任何一对；图中显示第 i = ${pair} 对。`,
  'rotation.loneColumn': ({ column, fn, pair }) =>
    `第 ${column} 列是奇数 d 的最后一列：单独的 ${fn}，缺少配对的另一半；图中显示第 i = ${pair} 对。`,
  'rotation.describe': ({ start, end, radius = 1 }) =>
    `编码中的一对维度画成${radius === 1 ? '单位圆' : `半径为 ${n(radius)} 的圆`}上的点：位置 p 时在 (${n(start[0])}, ${n(start[1])})，位置 p + k 时在 (${n(end[0])}, ${n(end[1])})。`,

  'offset.from': (start) => `起始位置 ${start}`,
  'offset.band': ({ first, last, shortest, longest }) => `第 ${first}–${last} 对（周期 ${n(shortest)}–${n(longest)}）`,
  'offset.mark': (k) => `k = ${k < 0 ? `−${-k}` : k}`,
  'offset.contributions': '按维度对分组的 Σ cos(ω_i k)，由快到慢',
  'offset.describe': ({ curves, spread }) =>
    `从 ${curves.length} 个起始位置计算的 s(k) 随偏移 k 的变化；曲线间最大差异 ${formatDifference(spread)}${spread < 1e-3 ? '：完全重合' : '：并不重合'}。`,

  'similarity.hint': '把鼠标移到矩阵上或点按，或聚焦后用方向键。',
  'similarity.legend': 'PE(p)·PE(q)',
  'similarity.describe': ({ rows, min, max }) =>
    `${rows} 个位置的相似度矩阵：点积从 ${n(min)} 到 ${n(max)}；约定具有相对性时沿对角线为常数。`,

  'compare.difference': '差（左 − 右）',
  'compare.describe': (label, { rows, columns, min, max }) =>
    `热图 ${label}：${rows} 个位置 × ${columns} 个维度，数值从 ${n(min)} 到 ${n(max)}。`,
  'question.paper': (kind = 'sin') => `论文：${kind === 'zero' ? '0（零列）' : `${kind}(pos / base^(2i/d))`}`,
  'question.ratio': (kind = 'sin') => `尝试：${kind === 'zero' ? '0（零列）' : `${kind}((pos / base)^(2i/d))`}`,
  'question.paperRow': '论文，位置 0：sin、cos',
  'question.swappedRow': 'cos 与 sin 互换，位置 0',
  'question.attemptRow': '完整的尝试，位置 0',
  'question.describeRatio': ({ panels, from, to }) =>
    `在位置 ${from} 到 ${to} 上对比论文与错误写法的列（${panels.map((p) => p.label).join('、')}）：论文的列是位置的正弦波；错误写法的列在位置 0 处跳变，之后变化缓慢，没有固定频率。`,
  'question.zoomAxis': (shown, dModel) => (shown < dModel ? `维度 j（${dModel} 维中的前 ${shown} 维）` : '维度 j'),
  'question.columnCurves': (start) => `指数用列序号，起始位置 ${start}`,

  'axis.position': '位置',
  'axis.dimension': '维度 j',
  'axis.wavelength': '周期 2π/ω（位置数）',
  'axis.change': '每步变化量',
  'axis.offset': '偏移 k',
  'axis.dot': 's(k)',
  'axis.positionQ': '位置 q',
  'axis.positionP': '位置 p',
  'readout.table': (position, column, value) => `PE[${position}, ${column}] = ${value.toPrecision(8)}`,
  'readout.difference': (position, column, value) => `（左 − 右）[${position}, ${column}] = ${value.toPrecision(8)}`,
  'readout.similarity': (p, q, value) => `PE[${p}]·PE[${q}] = ${value.toPrecision(8)}`,

  // 元素与嵌入页自己的消息（web/elements、web/embed）。
  'element.loading': '正在加载 WebAssembly 核心…',
  // 属性值应满足的条件（web/model/params.js 中 ParamError 的事实）。
  'param.expected': ({ kind, low, high, allowed }, given) =>
    `应为${
      kind === 'oneOf'
        ? `以下之一：${allowed.join('、')}`
        : kind === 'magnitude'
          ? ` ${low} 到 ${high} 或 -${high} 到 -${low} 之间的数`
          : kind === 'rowOrNone'
            ? ` none 或 ${low} 到 ${high} 之间的整数`
            : kind === 'evenInteger'
              ? ` ${low} 到 ${high} 之间的偶数`
              : ` ${low} 到 ${high} 之间的${kind === 'integer' ? '整数' : '数'}`
    }，实际为 ${given}`,
  'element.invalid': (tag, attribute, message) => `<${tag}>：属性 ${attribute} 无效：${message}。`,
  'element.slow': (seconds) =>
    `已过 ${seconds} 秒，WebAssembly 核心仍未加载完成：网络可能较慢或已断开。仍在等待；点击“重试”可重新请求。`,
  'element.loadFailed': (tag) =>
    `<${tag}>：无法加载 WebAssembly 核心（网络可能已断开，或文件被拦截）。请检查网络连接，然后点击“重试”。`,
  'element.retry': '重试',
  'element.failed': (tag, message) => `<${tag}>：${message}`,
  'embed.explainer': 'posenc · 在讲解页中打开',
  'embed.unknownPlot': (shown, plots) => `Unknown plot “${shown}”: plot must be one of ${plots.join(', ')}.`,
};
