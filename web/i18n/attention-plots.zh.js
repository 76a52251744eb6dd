// 注意力、正弦与余弦、训练长度和常见问题各图的中文字符串（sections/attention-sections.js），并入 plots.zh.js。
// A copy of number.js's formatNumber, as in plots.zh.js (a lazily loaded table imports nothing the entry has).
const n = (value, digits = 3) => {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) return value.toExponential(digits - 1);
  return String(Number(value.toPrecision(digits)));
};

const pct = (value) => `${n(value, 3)}%`;

export default {
  'attention.keyAxis': '键位置 q',
  'attention.queryAxis': '查询位置 p',
  'attention.legend': 'PE(p)ᵀ M_k PE(q)',
  'attention.readout': (p, q, k, value) => `PE(${p})ᵀ M_${k} PE(${q}) = s(${q + k - p}) = ${n(value, 6)}`,
  'attention.hint': '点按或悬停在矩阵上，或聚焦后用方向键；单击（或回车）选定查询 p。',
  'attention.describe': ({ rows, min, max, offset }) =>
    `k = ${offset} 时 ${rows} 个查询位置与键位置的位置注意力得分 PE(p)ᵀ M_k PE(q)：取值从 ${n(min)} 到 ${n(max)}，在对角线 q = p − ${offset} 上最大。`,
  'attention.before': 'p − k',
  'attention.after': 'p + k',
  'attention.plain': '普通点积 PE(p)·PE(q)',
  'attention.rotated': (k) => `用 M_${k}：PE(p)ᵀ M_${k} PE(q)`,
  'attention.scores': (p) => `查询 p = ${p} 的得分`,
  'attention.weights': 'softmax(得分 / √d)，只在图中各键上归一化',
  'attention.tokens': '用 M_k，加上随机词元',
  'attention.unscaled': '随机词元 x，范数约为 1',
  'attention.scaled': '随机词元 × √d，范数约为 √d',
  'attention.symmetry': ({ plainBefore, plainAfter, rotatedBefore, rotatedAfter, offset }) =>
    `普通点积：score(p, p − ${offset}) = ${n(plainBefore, 6)}，score(p, p + ${offset}) = ${n(plainAfter, 6)}，两者相同：分不清前后。用 M_${offset}：score(p, p − ${offset}) = s(0) = ${n(rotatedBefore, 6)}，score(p, p + ${offset}) = s(${2 * offset}) = ${n(rotatedAfter, 6)}。`,
  'attention.weightBack': ({ plain, rotated, offset }) =>
    Number.isFinite(rotated)
      ? `键 p − ${offset} 上的 softmax 权重：普通点积为 ${n(plain, 3)}，用 M_${offset} 为 ${n(rotated, 3)}。`
      : `p − ${offset} 在位置 0 之前：这个查询没有往前第 ${offset} 个键。`,
  'attention.fractions': ({
    window,
    offset,
    rows,
    plain,
    rotated,
    unscaled,
    scaled,
    unscaledPercent,
    scaledPercent,
    scaledItself,
  }) =>
    rows === 0
      ? `位置 0 … ${window - 1} 中没有哪个查询有往前第 ${offset} 个键：请减小 k。`
      : `查询 p = ${offset} … ${window - 1}（共 ${rows} 个），键 0 … ${window - 1}：最佳键是 p − ${offset} 的查询，普通点积有 ${plain} 个，用 M_${offset} 有 ${rotated} 个，加上范数约为 1 的词元有 ${unscaled} 个（${pct(unscaledPercent)}），词元乘以 √d 后有 ${scaled} 个（${pct(scaledPercent)}）。此时有 ${scaledItself} 个查询给自身位置打分最高${scaledItself > rows / 2 ? '：词元与自身的乘积 x_pᵀ M_k x_p 压过了其余各项' : ''}。`,
  'attention.describeRows': ({ position, offset }) =>
    `查询 ${position} 对其附近各键的注意力得分和 softmax 权重：普通点积、M_${offset}，以及加上随机词元嵌入之后。`,

  'sineOnly.from': (start) => `只用正弦，从位置 ${start} 出发`,
  'sineOnly.axis': 's_sin(k)',
  'sineOnly.describe': ({ curves, spread }) =>
    `纯正弦编码从 ${curves.length} 个起始位置出发的 s(k)；曲线之间最大相差 ${n(spread)}：它依赖于起始位置。`,

  'sineFit.sine': '只用正弦：最佳矩阵',
  'sineFit.cosine': '只用余弦：最佳矩阵',
  'sineFit.both': '正弦和余弦：M_k',
  'sineFit.panel': ({ pairs, allPairs }) =>
    `没能拟合的 f(PE(p + k)) 部分，逐对${pairs < allPairs ? `（最快的 ${pairs} 对）` : ''}`,
  'sineFit.axis': '维度对 i',
  'sineFit.underdetermined': ({ positions, pairs }) =>
    `只有 ${positions} 个位置、却有 ${pairs} 对维度：这么少的行总有矩阵能完全拟合。请增大 L 或减小 k。`,
  'sineFit.residual': ({ positions, offset, pairs, allPairs, sine, cosine, both }) =>
    `在 p = 0 … ${positions - 1}${pairs < allPairs ? `、维度对 0 … ${pairs - 1}` : ''} 上从 f(PE(p)) 到 f(PE(p + ${offset})) 的最佳矩阵：纯正弦目标有 ${pct(sine)} 没能拟合，纯余弦目标有 ${pct(cosine)}。正弦和余弦都在时，M_${offset} 只差 ${both.toExponential(1)}，即舍入误差。`,
  'sineFit.zero': ({ offset, norm }) =>
    `为什么只用正弦不可能有这样的矩阵：p = 0 时纯正弦向量全为零，任何矩阵都把零映射为零，而 p = ${offset} 的向量范数为 ${n(norm, 4)}。`,
  'sineFit.spread': ({ sine, cosine }) =>
    `从 p 和从 p + 100 出发的 s(k)，只用正弦时最多相差 ${n(sine, 4)}，只用余弦时最多相差 ${n(cosine, 4)}：点积依赖于起点。`,
  'sineFit.mirror': ({ pair, position, angle, mirrorAngle, mirrorPosition }) =>
    `维度对 i = ${pair} 在 p = ${position}：角 θ = ${n(angle, 4)} rad。单看正弦，π − θ = ${n(mirrorAngle, 4)} rad 时取值相同，这一对在位置 ${n(mirrorPosition, 4)} 转到该角；余弦能区分两者（cos θ = ${n(Math.cos(angle), 3)}，cos(π − θ) = ${n(Math.cos(mirrorAngle), 3)}）。`,
  'sineFit.describe': ({ pairs }) =>
    `逐对（共 ${pairs} 对）：纯正弦和纯余弦编码下，最佳矩阵没能拟合的平移后编码所占比例（很大），以及正弦和余弦都在时 M_k 的残差（为零）。`,

  'extrapolation.panel': '每对维度转过的圆周比例',
  'extrapolation.marker': '第一个没转满一圈的维度对',
  'extrapolation.seen': (length) => `训练中见过的，位置 0 … ${length - 1}`,
  'extrapolation.reached': (position) => `在 p = ${position} 时转到的`,
  'extrapolation.count': ({ length, incomplete, firstIncomplete, slowestSeenDegrees, seen }) =>
    incomplete === 0
      ? `L = ${length} 时，全部 ${seen.length} 对维度在训练位置内都转满了一圈。`
      : `L = ${length} 时，维度对 ${firstIncomplete} … ${seen.length - 1}（${seen.length} 对中的 ${incomplete} 对）在位置 0 … ${length - 1} 内转不满一圈；最慢的一对只见过 360° 中的 ${n(slowestSeenDegrees, 3)}°。`,
  'extrapolation.atP': ({ length, position, unseenAtP, incomplete }) =>
    position < length
      ? `p = ${position} 在训练长度之内：每对维度所处的角度都在训练中见过。`
      : `在 p = ${position}（超出 L = ${length}），没转满一圈的 ${incomplete} 对中有 ${unseenAtP} 对处在训练位置从未有过的角度。`,
  'extrapolation.describe': ({ length, incomplete, seen }) =>
    `逐对画出位置 0 到 ${length - 1} 覆盖了圆周的多少：${seen.length} 对中有 ${incomplete} 对只见过一段弧。`,

  'tokenScale.panel': (p) => `位置 ${p}：PE(p) 与词元 × √d`,
  'tokenScale.pe': (p) => `PE(${p})`,
  'tokenScale.token': '随机词元嵌入 × √d',
  'tokenScale.norms': ({ peNorm, tokenNorm, scaledNorm, dModel }) =>
    `d = ${dModel} 时 |PE(p)| = ${n(peNorm, 4)} = √${Math.floor(dModel / 2)}（每对维度贡献 1）。以标准差 1/√d 初始化的词元嵌入范数为 ${n(tokenNorm, 3)}；乘以 √d = ${n(Math.sqrt(dModel), 4)} 后为 ${n(scaledNorm, 3)}。`,
  'tokenScale.cosine': ({ cosine, dModel }) =>
    `这个词元与 PE(p) 夹角的余弦：${n(cosine, 2)}；${dModel} 维空间中两个随机方向夹角余弦的典型大小为 1/√d = ${n(1 / Math.sqrt(dModel), 2)}。`,
  'tokenScale.nope': ({ position, uniformWeight }) =>
    `没有任何位置编码时，一个均匀关注此前所有词元的因果注意力头，在 p = ${position} 给每个词元的权重是 1/(p + 1) = ${n(uniformWeight, 3)}：后面的层可以从这个值读出位置。`,
  'tokenScale.describe': ({ position }) => `位置 ${position} 的位置编码与乘以 √d 的随机词元嵌入，逐维度取值。`,
};
