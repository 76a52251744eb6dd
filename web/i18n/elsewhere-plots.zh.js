// “其他场合中的正弦编码”一章的图的中文字符串（元素与 embed.html 也显示）；
// plots.zh.js 把它们并入。formatNumber 取自 plots.zh.js（懒加载的表不引入入口模块已有的文件）。
import { formatDifference as tiny, formatNumber as n } from './plots.zh.js';

const range = (last) => (last === 1 ? 't 取 0 … 1' : 't 取 0 … 1000');

export default {
  'timestep.yTitle': (last) => (last === 1 ? '第 k 行：t = k / 100' : '第 k 行：t = 10 k'),
  'timestep.legend': '嵌入的值',
  'timestep.describe': ({ rows, columns, min, max, last }) =>
    `时间步嵌入的热图：${rows} 个时间步（${range(last)}）× ${columns} 个维度，值从 ${min.toFixed(3)} 到 ${max.toFixed(3)}。`,
  'readout.timestep': ({ t, column, value }) => `emb[t = ${t}, ${column}] = ${value.toPrecision(8)}`,

  'timestepSimilarity.series': (last) => (last === 1 ? '时间步 0 … 1' : '时间步 0 … 1000'),
  'timestepSimilarity.xTitle': 't 占其取值范围的比例',
  'timestepSimilarity.yTitle': '与 t = 0 的余弦相似度',
  'timestepSimilarity.note': ({ last, ends, neighbours, step, maxPeriod }) =>
    `${range(last)}，max_period 为 ${maxPeriod}：t = 0 与 t = ${last} 的嵌入的余弦相似度为 ${n(ends, 6)}；相邻时间步（相差 ${step}）的至少为 ${n(neighbours, 6)}。`,
  'timestepSimilarity.describe': (dim) =>
    `维度为 ${dim} 时，t 处的嵌入与 t = 0 处的嵌入的余弦相似度；时间步 0 … 1000 与 0 … 1 画在同一横轴上（t 除以其范围的终点）。`,

  'grid.xTitle': '图块列 c（宽）',
  'grid.yTitle': '图块行 r（高）',
  'gridColumn.legend': (column) => `第 ${column} 列`,
  'gridColumn.note': ({ column, dim, axis, fn, pair, frequency }) =>
    `${dim} 列中的第 ${column} 列：${axis === 'width' ? '列号 c' : '行号 r'} 的 ${fn}，频率 ${n(frequency, 4)}（所在一半中的第 ${pair} 对）；它沿图块的${axis === 'width' ? '每一列' : '每一行'}不变。`,
  'gridColumn.describe': ({ rows, columns, min, max, column }) =>
    `网格嵌入的第 ${column} 列，画成 ${rows} × ${columns} 个图块的图像，值从 ${min.toFixed(3)} 到 ${max.toFixed(3)}。`,
  'readout.gridValue': ({ row, column, index, value }) =>
    `图块 (${row}, ${column}) 的第 ${index} 列：${value.toPrecision(8)}`,

  'gridDots.legend': '点积',
  'gridDots.hint': '把鼠标移到图块上或点按，或聚焦图像后用方向键；按回车或点击即选中该图块。',
  'gridDots.note': ({ spread }) =>
    `行、列相差相同的两对图块，点积彼此相差不超过 ${tiny(spread)}：点积只取决于二维偏移。`,
  'gridSwapped.note': ({ spread, rows, columns }) =>
    rows === columns
      ? `正方形网格（${rows} × ${columns}）：交换高和宽不改变任何值（相同偏移下最大差 ${tiny(spread)}）。把网格改成非正方形就能看到这个错误。`
      : `按 ${columns} × ${rows} 构造、按 ${rows} × ${columns} 读取时，相同偏移的图块对的点积相差可达 ${n(spread, 4)}：点积不再只取决于偏移。`,
  'gridDots.describe': ({ rows, columns, min, max, row, column, swapped }) =>
    `图块 (${row}, ${column}) 与${swapped ? '高和宽被交换的' : ''} ${rows} × ${columns} 网格中每个图块的点积，从 ${min.toFixed(2)} 到 ${max.toFixed(2)}。`,
  'readout.gridDot': ({ row, column, r, c, value }) => `PE(${row}, ${column})·PE(${r}, ${c}) = ${value.toPrecision(8)}`,

  'relativeTable.yTitle': (first) => `第 k 行：位置 ${first} − k`,
  'relativeTable.noteRelative': ({ first, relativeDifference }) =>
    `位置 ${first} … −${first}：p ≥ 0 处的每一行就是从 0 开始的表的第 p 行，−p 处的每一行是第 p 行把正弦取反（sin(−x) = −sin x），误差不超过 ${tiny(relativeDifference)}。`,
  'relativeTable.noteChunk': ({ chunkStart, chunkRows, chunkDifference }) =>
    `位置 ${chunkStart} … ${chunkStart + chunkRows - 1} 的流式分块，等于从 0 开始的表的第 ${chunkStart} … ${chunkStart + chunkRows - 1} 行，误差不超过 ${tiny(chunkDifference)}。`,
  'relativeTable.describe': ({ rows, columns, min, max, first }) =>
    `相对位置表的热图：${rows} 行，位置从 ${first} 降到 −${first}，${columns} 个维度，值从 ${min.toFixed(3)} 到 ${max.toFixed(3)}。`,
};
