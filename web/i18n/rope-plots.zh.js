// 旋转位置编码（RoPE）一章的图与“为什么是 10000”的中文字符串（元素与 embed.html 也显示）；
// plots.zh.js 把它们并入。formatNumber 取自 plots.zh.js（懒加载的表不引入入口模块已有的文件）。
import { formatDifference as tiny, formatGrouped, formatNumber as n } from './plots.zh.js';

const count = (value) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
/** 基数：小于 1e7 的整数按千位分组（500,000），其余照常（4293.44、1.00e+8）。 */
const b = (base, digits = 3) => (Number.isInteger(base) && base < 1e7 ? count(base) : formatGrouped(base, digits));

export default {
  'axis.base': '基数 base',

  'whyBase.similarity': (apart) => `相距 ≥ ${apart} 的两行的最大余弦相似度`,
  'whyBase.slow': (length) => `在 ${count(length)} 个位置内转不到 1 弧度的维度占比`,
  'whyBase.yTitle': '相似度 / 占比',
  'whyBase.markCurrent': (base) => `基数 ${b(base)}`,
  'whyBase.markSmallest': (base) => `最小 ${b(base)}`,
  'whyBase.noteAt': ({ base, similarity, slowDims, d, apart }) =>
    `基数为 ${b(base)} 时：相距 ${apart} 个位置及以上的两行，余弦相似度最高达 ${n(similarity)}；${d} 个维度中有 ${slowDims} 个在整张表内转不到 1 弧度。`,
  'whyBase.noteSmallest': ({ smallest, length, d }) =>
    smallest === null
      ? `d = ${d} 时，直到 1e12 都没有基数能让所有 k < ${count(length)} 满足 s(k) ≥ 0。`
      : `d = ${d} 时，让所有 k < ${count(length)} 都满足 s(k) ≥ 0 的最小基数（Men 等人 2024 年的准则）是 ${b(smallest, 6)}：10000 ${smallest <= 1e4 ? '在它之上' : '在它之下，按这个准则对这张表来说太小'}。`,
  'whyBase.describe': ({ d, length, apart }) =>
    `横轴为基数（对数坐标），d = ${d}，${count(length)} 个位置：相距至少 ${apart} 的两行的最大余弦相似度（基数小时高），以及几乎不转的维度占比（基数大时高）。`,

  'ropeRelative.from': (start) => `q 在位置 ${count(start)}`,
  'ropeRelative.xTitle': '偏移 k',
  'ropeRelative.yTitle': '𝐪_p · 𝐤_(p+k)',
  'ropeRelative.describe': ({ curves, spread, other, permutedDifference, unpermutedDifference }) =>
    `同一个 𝐪 和 𝐤 分别旋转到位置 p 和 p + k，取 ${curves.length} 个起始位置：各曲线相差不超过 ${tiny(spread)}。换成 ${other === 'half' ? '前后对半（half）' : '交错（interleaved）'}布局并把 q、k 相应重排后，得分相差不超过 ${tiny(permutedDifference)}；不重排则最多相差 ${n(unpermutedDifference)}。`,

  'ropeDecay.bound': 'RoFormer 的相对上界 ÷ 它在 0 处的值',
  'ropeDecay.score': '全 1 的 𝐪、𝐤 的 RoPE 得分',
  'ropeDecay.sinusoid': '正弦表的 s(k)/(d/2)',
  'ropeDecay.yTitle': '得分',
  'ropeDecay.noteBound': ({ window, atZero, last }) =>
    `上界 (1/(d/2))·Σ|S_j| 从 k = 0 处的 ${n(atZero)} 降到 k = ${count(window)} 处的 ${n(last)}（${n((100 * last) / atZero)}%）。`,
  'ropeDecay.noteAgreement': (difference) => `RoPE 得分与正弦编码的 s(k)/(d/2) 相差不超过 ${tiny(difference)}。`,
  'ropeDecay.describe': (window) =>
    `偏移 0 到 ${count(window)}：RoFormer 的相对上界（缩放到 0 处为 1）、全 1 的 𝐪 与 𝐤 的得分，以及与之重合的正弦编码 s(k)/(d/2)。`,

  'ropeBase.series': (headDim) => `该基数支持的上下文长度（d = ${headDim}）`,
  'ropeBase.guide': (context) => `L = ${count(context)}`,
  'ropeBase.mark': ({ base, supported, capped }) => `${b(base)}：${capped ? '≥ ' : ''}${count(supported)}`,
  'ropeBase.yTitle': '上下文长度（位置数）',
  'ropeBase.noteSmallest': ({ smallest, context, headDim }) =>
    smallest === null
      ? `d = ${headDim} 时，直到 1e12 都没有基数能让所有 k < ${count(context)} 满足 Σ cos(k·ω_i) ≥ 0。`
      : `d = ${headDim} 时，让所有 k < ${count(context)} 都满足 Σ cos(k·ω_i) ≥ 0 的最小基数：${b(smallest, 6)}。`,
  'ropeBase.noteMark': ({ base, supported, capped, context }) =>
    capped
      ? `基数 ${b(base)}：对所有 k < ${count(supported)} 求和都 ≥ 0（没有再往后数）：足够 L = ${count(context)}。`
      : `基数 ${b(base)}：求和在 k = ${count(supported)} 处首次为负，所以它支持 ${count(supported)} 个位置：${supported >= context ? '足够' : '不足'} L = ${count(context)}。`,
  'ropeBase.describe': ({ headDim, context, limit, marked }) =>
    `横轴为基数（对数坐标），纵轴为按 Men 等人（2024）的准则在 d = ${headDim} 时该基数支持的上下文长度（最多数到 ${count(limit)}），并画出 L = ${count(context)} 的水平线，标出 ${marked
      .slice(0, -1)
      .map((base) => b(base))
      .join('、')} 和 ${b(marked.at(-1))}。`,
};
