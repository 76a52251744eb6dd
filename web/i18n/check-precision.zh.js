// 检查器对“位置、频率、指数或角度经过了更小浮点格式”的表的说明
// （identify() 的 '<step>-dtype' 诊断），展开到 zh.js。
import { formatNumber as n } from './plots.zh.js';

const STEP = { exponentDtype: '指数', frequencyDtype: '频率', positionDtype: '位置', angleDtype: '角度' };

export default {
  'check.verdict.presetRounded': (preset, steps) =>
    `这是 ${preset} 的表，但${steps.map(({ knob, format }) => `${STEP[knob]}用 ${format} 表示`).join('，')}。`,
  'check.param.exponentDtype': '指数的计算精度',
  'check.param.frequencyDtype': '频率的计算精度',
  'check.param.positionDtype': '位置的存储精度',
  'check.rounded': (format) => `${format}（有舍入）`,
  'check.dx.angle-dtype': ({ found: format, bits, error, where: { row } }) =>
    `角度被舍入到 ${format}：位置 × 频率只保留了 ${bits} 位有效二进制位，误差随位置增大，在第 ${row} 行达到 ${n(error)}。精度损失在这一步：应先用 float32 或 float64 计算角度，最后再转换表的类型。`,
  'check.dx.position-dtype': ({ found: format, exactUpTo, error, where: { row } }) =>
    `位置被舍入到 ${format}，它只能精确表示不超过 ${exactUpTo} 的整数：超过之后相邻位置变成同一个值（角度也相同），在第 ${row} 行偏差达到 ${n(error)}。精度损失在这一步：位置应使用 float32 或整数类型。`,
  'check.dx.frequency-dtype': ({ found: format, bits, error, where: { row } }) =>
    `频率被舍入到 ${format}（${bits} 位有效二进制位）：每一列的转速都略有偏差，角度随位置逐渐漂移，在第 ${row} 行偏差达到 ${n(error)}。精度损失在这一步：应使用 float32 或 float64 计算频率。`,
  'check.dx.exponent-dtype': ({ found: format, error, where: { row } }) =>
    `频率的指数（如 2i/d）是用 ${format} 计算的：每个频率都略有偏差，误差随位置增大，在第 ${row} 行达到 ${n(error)}。精度损失在这一步：应使用 float64 计算指数。`,
};
