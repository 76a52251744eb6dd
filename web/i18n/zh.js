// 中文字符串（与 en.js 键相同）。富文本：空行分段，$…$ 行内公式，$$…$$ 独立公式，**…** 加粗。
// 图与元素显示的字符串在 plots.zh.js（元素包只加载这些）。
import { groupDigits as count } from './number.js';
import attention from './attention.zh.js';
import plots, { formatNumber as n } from './plots.zh.js';
import precision from './precision.zh.js';
import checkPrecision from './check-precision.zh.js';
import rope from './rope.zh.js';
import ropeLab from './rope-lab.zh.js';
import elsewhere from './elsewhere.zh.js';

const r = String.raw;
// identify() 在回答"无匹配"之前尝试过的（它的 `tried`）。
const TRIED_ZH = {
  table: '位置为 0, 1, … 的一维表（最多平移 3）',
  grid: '二维和三维正弦余弦网格（MAE、DiT、diffusers、CogVideoX；开头的全零行视为类别词元或文本词元）',
  timestep: '时间步等间隔的时间步嵌入',
  'any-start': '从任意位置开始的一维表',
  descending: '递减的（相对）位置',
  transposed: '转置后的表',
};

// 随设置变化的句子，由 web/model/text-facts.js 的事实（f）生成；图的数值到达之前没有数值类事实。
const halves = (f) => (f.layout === 'concat' ? '每一半的右端' : '右边');
function heatmapClocks(f) {
  if (!f.sinusoidal)
    return r`在此预设的角 $(pos/\text{base})^{e}$ 下，各列不是位置的正弦波：过了最初几行，每一列都几乎不变（原因见 {ref:question}）。`;
  const where = f.layout === 'concat' ? '在每一半（先是正弦，后是余弦）中，靠左的列' : '左边（靠前的维度）的颜色';
  let slow = '靠右的列变化缓慢。';
  if (f.slowLargest !== undefined)
    slow =
      f.slowLargest < 0.5
        ? `靠右${f.layout === 'concat' ? '（每一半的右端）' : ''}的列几乎不变：在全部 ${f.length} 行中，最慢的正弦列（第 ${f.slowColumn} 列）始终在 ±${n(f.slowLargest)} 以内。`
        : `但在底数 ${n(f.base, 6)} 下，即使最慢的正弦列（第 ${f.slowColumn} 列）在 ${f.length} 行中也摆动到 ±${n(f.slowLargest)}：在这个尺度上没有慢速维度。`;
  return `${where}逐行变化；${slow}维度对序号小的是走得快的钟，序号大的是走得慢的钟。`;
}
/** 第 0 行（place 'heatmap'）或位置 0 的行（place 'row'）的样子。 */
function rowZero(f, place) {
  const heat = place === 'heatmap';
  const first = heat ? '第 0 行是' : '位置 0 时所有角都是 0，所以这一行是';
  const end = heat ? '：表顶部的细条纹。' : '（上图）。';
  const shape = {
    padding: heat
      ? '第 0 行全为零：此预设把它留作填充行（见 {ref:compare}），即表顶部的空白条。'
      : '这里这一行全为零（上图）：此预设把第 0 行置零，作为填充行（见 {ref:compare}）。',
    'interleaved-sin-cos': `${first} $\\sin 0, \\cos 0, \\sin 0, \\dots = 0, 1, 0, 1, \\dots$${end}`,
    'interleaved-cos-sin': `${first} $\\cos 0, \\sin 0, \\cos 0, \\dots = 1, 0, 1, 0, \\dots$${end}`,
    'concat-sin-cos': `${first}前一半 $\\sin 0 = 0$、后一半 $\\cos 0 = 1$${heat ? '：表顶部左半从 0 开始，右半从 1 开始。' : '（上图）。'}`,
    'concat-cos-sin': `${first}前一半 $\\cos 0 = 1$、后一半 $\\sin 0 = 0$${heat ? '：表顶部左半从 1 开始，右半从 0 开始。' : '（上图）。'}`,
    ratio: `${heat ? '第 0 行中' : '位置 0 时'}每个角 $(0/\\text{base})^{e}$ 都是 0，只有指数 $e$ 为 0 处例外（$0^0 = 1$）：最前面的列是 $\\sin 1$ 或 $\\cos 1$，其余为 $0$ 或 $1$${heat ? '。' : '（上图）。'}`,
  }[f.rowZero];
  const padding =
    f.padding !== null && f.padding !== 0 ? `第 ${f.padding} 行全为零：这是此预设的填充行（见 {ref:compare}）。` : '';
  return shape + (heat ? padding : '');
}
function wavesPace(f) {
  if (!f.periodic) return '';
  const fast =
    Math.abs(f.fastPeriod - 2 * Math.PI) < 1e-9
      ? `每个位置转 1 弧度（周期 2π ≈ 6.3 个位置）`
      : `每个位置转 ${n((2 * Math.PI) / f.fastPeriod)} 弧度（周期 ${n(f.fastPeriod)} 个位置）`;
  const slow =
    f.slowTurn < 0.5
      ? `图中最慢的一列（j\u00a0=\u00a0${f.slowColumn}）在窗口的 ${f.span} 个位置中只转了 ${n(f.slowTurn)} 弧度：几乎不动。`
      : `即使图中最慢的一列（j\u00a0=\u00a0${f.slowColumn}）在窗口的 ${f.span} 个位置中也转了 ${n(f.slowTurn)} 弧度：在这个底数和宽度下，这一尺度上没有静止的列。`;
  return `第 ${f.fastColumn} 列${fast}；${slow}`;
}
function ladderFall(f) {
  if (f.periodic === false)
    return r`在此预设的角 $(pos/\text{base})^{e}$ 下，没有哪一列有固定频率，因此没有阶梯可画（见 {ref:question}）。`;
  const slowest = f.slowest === undefined ? '' : `（此处为 ${n(f.slowest)}）`;
  const longest = f.longest === undefined ? '' : `（此处为 ${n(f.longest)}）`;
  if (f.exponent === 'column')
    return `指数用列序号 $j$ 时，$\\omega_j = \\text{base}^{-2j/d}$ 从 $1$ 按等比数列降到接近 $1/\\text{base}^2$${slowest}：指数一直到接近 2，正如问答帖回答 2 对公式的理解（{ref:question} 错误 2）；波长 $\\lambda_j = 2\\pi\\cdot\\text{base}^{2j/d}$ 从 $2\\pi$ 增长到接近 $2\\pi\\cdot\\text{base}^2$${longest}——在对数坐标上是一条直线。`;
  const [omega, lambda, end] =
    f.exponent === 'half-minus-one'
      ? [r`\text{base}^{-i/(d/2-1)}`, r`2\pi\cdot \text{base}^{i/(d/2-1)}`, '恰好']
      : [r`\text{base}^{-2i/d}`, r`2\pi\cdot \text{base}^{2i/d}`, '接近'];
  return `维度对序号 $i$ 相当于频率：$\\omega_i = ${omega}$ 从 $1$ 按等比数列降到${end} $1/\\text{base}$${slowest}，因此波长
$$\\lambda_i = \\frac{2\\pi}{\\omega_i} = ${lambda}$$
从 $2\\pi$ 增长到${end} $2\\pi\\cdot\\text{base}$${longest}——在对数坐标上是一条直线。`;
}
function rowAt(f) {
  const p = f.position;
  if (f.paired === undefined) return r`在比慢速波长小得多的位置 $p$，快速维度取遍 $[-1, 1]$，慢速维度仍接近 $0, 1$。`;
  if (!f.paired)
    return `在此预设下，一对中的正弦和余弦并不按同一个角转动（见 {ref:question}）：中图是按公式算出的位置 p\u00a0=\u00a0${p}。`;
  if (p === 0) return '在 p = 0 时，中图就是这一行本身。';
  if (f.stillPairs > 0)
    return `在位置 p\u00a0=\u00a0${p}，快速维度对取遍 $[-1, 1]$，而最慢的 ${f.stillPairs} 对（共 ${f.pairs} 对，位于${halves(f)}）转过的角不到 0.1 弧度，仍约为 $0, 1$。`;
  return `在位置 p\u00a0=\u00a0${p}，即使最慢的一对也已转过 ${n(f.slowestAngle)} 弧度：没有哪一对仍接近 $0, 1$（更大的底数或更小的 p 才能让慢速维度对留在那里）。`;
}
/** 最慢一列的周期是否长于整张表（能区分相距很远的行），还是在表内就绕圈。 */
const wrapping = (f) =>
  f.slowestPeriod >= f.length
    ? `：它的周期是 ${n(f.slowestPeriod)} 个位置，长于表的 ${f.length} 行，所以它在不绕圈的前提下区分相距很远的位置`
    : `；但它的周期只有 ${n(f.slowestPeriod)} 个位置，短于表的 ${f.length} 行：连最慢的一列在表内也会绕圈，相隔一个周期的两行只能靠更快的列来区分`;
function sensitivitySpan(f) {
  if (!f.sinusoidal)
    return r`在此预设的角 $(pos/\text{base})^{e}$ 下，没有哪一列有固定频率：没有上界可比（见 {ref:question}）。`;
  const numbers = f.largestChange !== undefined;
  const span = numbers
    ? `最快的维度每步最多变化 ${n(f.largestChange)}，用来区分相邻位置；最慢一列的上界是 ${n(f.smallestBound)}${f.exponent === 'column' ? r`（约 $1/\text{base}^2$：指数用了列序号）` : r`（约 $1/\text{base}$）`}${wrapping(f)}。`
    : r`前面的维度每步最多变化约 1，用来区分相邻位置；最后的维度每步只变化约 $1/\text{base}$，在不绕圈的前提下区分相距很远的位置。`;
  const branch = numbers
    ? f.lowerBranch > 0
      ? `在 p\u00a0=\u00a0${f.position}，${f.dModel} 列中有 ${f.lowerBranch} 列的变化不到其上界的十分之一：这就是下面那一支。`
      : `在 p\u00a0=\u00a0${f.position}，没有哪一列的变化不到其上界的十分之一。`
    : '';
  return `${span}

圆点分成两支。走一步，一对中的正弦变化 $2\\sin(\\omega/2)\\,|\\cos(\\omega(p+\\tfrac12))|$，余弦变化 $2\\sin(\\omega/2)\\,|\\sin(\\omega(p+\\tfrac12))|$：当角 $\\omega p$ 还很小时，正弦变化约为 $\\omega$（落在曲线上），余弦只变化约 $\\omega^2(p+\\tfrac12)$，因为余弦在顶端是平的。${branch}`;
}
function offsetTop(f) {
  const together =
    f.spread === undefined
      ? '对于每对共享一个频率的约定，它们完全重合。'
      : f.spread <= 1e-3 * Math.max(1, Math.abs(f.peak))
        ? '完全重合。'
        : `这里它们分开了，最多相差 ${n(f.spread)}：此预设的正弦和余弦不共享同一频率，点积取决于 p（见 {ref:question}）。`;
  const halfD = f.dModel % 2 === 0 && f.peak !== undefined && Math.abs(f.peak - f.dModel / 2) < 1e-3 * f.dModel;
  const peak =
    f.peak === undefined
      ? '$k = 0$ 处的峰值是 $|PE(p)|^2$（论文的约定、偶数 $d$ 时为 $d/2$）'
      : `$k = 0$ 处的峰值是 $|PE(p)|^2$ = ${n(f.peak, 6)}${halfD ? ' = $d/2$' : ''}`;
  return `上图：从三个起始位置计算的 $s(k)$ 叠在一起——${together}${peak}；随着快速维度对相位错开而下降。`;
}

export default {
  ...rope,
  ...plots,
  ...precision,
  ...checkPrecision,
  ...elsewhere,
  ...ropeLab,
  ...attention,
  'page.title': '正弦位置编码：实时计算与图解',
  'page.skip': '跳到正文',
  'page.subtitle': '为什么《Attention Is All You Need》的 sin/cos 表能编码相对位置',
  'page.loading': '正在加载 WebAssembly 核心……',
  'page.computing': '正在计算……',
  'page.slow': (seconds) =>
    `已过 ${seconds} 秒，WebAssembly 核心仍未加载完成：网络可能较慢或已断开。页面会继续等待；点击“重试”可重新请求。`,
  'page.loadFailed': '无法加载 WebAssembly 核心：网络可能已断开，或文件被拦截。请检查网络连接，然后点击“重试”。',
  'page.workerFailed':
    '页面的计算线程（Web Worker）未能启动：其脚本没有加载成功，或运行时出错。请点击“重试”或刷新页面。',
  'page.retry': '重试',
  'page.detail': (reason) => `详情（英文）：${reason}`,
  'page.intro': '引言',
  'page.description':
    '用交互图解读《Attention Is All You Need》的位置编码：为什么用正弦和余弦，为什么平移就是旋转，各家实现有何不同，以及 RoPE。全部由 WebAssembly 在浏览器中计算。',
  'chapter.sinusoidal': '正弦位置编码',
  'chapter.sinusoidal.page': '正弦位置编码 · 位置编码：实时计算与图解',
  'chapter.sinusoidal.description':
    '用交互图解读《Attention Is All You Need》的编码表：它的列、频率，为什么平移就是旋转，注意力如何利用它，为什么取 10000。',
  'chapter.implementations': '各家实现',
  'chapter.implementations.page': '各家实现 · 位置编码：实时计算与图解',
  'chapter.implementations.description':
    '正弦位置编码的各家实现有何不同，一个知名问答帖中的三个错误，检查你自己的编码表，以及半精度对角度的影响。',
  'chapter.rope': '旋转位置编码（RoPE）',
  'chapter.rope.page': '旋转位置编码（RoPE） · 位置编码：实时计算与图解',
  'chapter.rope.description':
    '用交互图解读旋转位置编码：从相加到旋转、远程衰减、如何选择基数、上下文扩展（线性、NTK、YaRN、Llama 3、LongRoPE）、检查工具与代码。',
  'toc.summary': '目录',
  'toc.start': '首页：全部章节',
  'nav.label': '章节',
  'nav.previous': '上一章：',
  'nav.next': '下一章：',
  'start.what': '本站讲什么',
  'start.qa': '问答帖逐条解答',
  'start.qaText': r`一个知名问答帖问这张表如何编码位置，并用犯了三个错误的代码计算它；下面有两个回答。帖中的每个问题和说法各占一行，并链接到解答它的小节：`,
  'start.contents': '目录',
  'qa.ratio': '提问者的代码把比值 pos/10000 取 2i/d 次幂，而不是用 pos 除以 10000^(2i/d)',
  'qa.column': '提问者的代码让 i 遍历所有列，指数因此一直到接近 2',
  'qa.order': '提问者的代码把余弦放在偶数列、正弦放在奇数列',
  'qa.how': '“我不明白这个矩阵如何提供有关输入位置的信息”',
  'qa.correct': '“这是否是正确的计算方法？”检查任意一张编码表，包括你自己的',
  'qa.padding': '回答 1 的 PyTorch 代码把第 0 行留作填充词元的全零向量',
  'qa.extrapolate': '回答 1 引用论文：模型也许能外推到比训练时更长的序列',
  'qa.onlyPos': '回答 1：两个位置之间唯一的区别是变量 pos',
  'qa.zero': '回答 2：位置 0 交替取 sin(0) 和 cos(0)，只区分奇数维和偶数维',
  'qa.exponent': '回答 2：指数 2i/hidden_units 从 0 变到 2',
  'qa.sensitive': '回答 2：低维比高维对 pos 更敏感',
  'qa.frequencies': '回答 2：每个维度都是对一个正弦波的采样，频率逐维递减',
  'qa.similarity': '回答 2：不同频率的波编码了位置之间不同的相似度',
  'qa.sinCos': '回答 2：“SIN 和 COS 项是做什么的？”',
  'qa.hyper': '回答 2：“如果 pos 接近 hidden_units 怎么办？”（“这些是超参数”）',
  'page.footer': r`本页所有数值都由 posenc（编译为 WebAssembly 的 C++17 库）实时计算，页面只负责绘图。地址栏保存当前视图，分享链接即可复现。`,
  language: '语言',

  'controls.heading': '本章控制项',
  'controls.dModel': '模型宽度 d',
  'controls.length': '表长 L（位置数）',
  'controls.base': '底数 base',
  'controls.preset': '预设（约定）',
  'controls.layout': '排列方式',
  'controls.exponent': '指数',
  'controls.position': '位置 p',
  'controls.offset': '偏移 k',
  'controls.dimension': '维度 j',
  'controls.versus': '对比对象',
  'controls.beyondValue': (p) => `${p}（超出 L）`,
  'controls.reset': '全部重置',
  'controls.short.dModel': 'd',
  'controls.short.length': 'L',
  'controls.short.base': '底数',
  'controls.short.ropeDim': '头维度 d',

  // 控制项与预设表中选项的显示名；选项值（URL、代码）仍是代码名。
  'option.preset.vaswani': '论文 vaswani',
  'option.preset.tensor2tensor': 'tensor2tensor',
  'option.preset.tf-tutorial': 'TensorFlow 教程 tf-tutorial',
  'option.preset.fairseq': 'fairseq',
  'option.preset.legacy-column': '早期移植 legacy-column',
  'option.preset.question': '提问者的写法 question',
  'option.layout.interleaved': '交错（interleaved）',
  'option.layout.concat': '拼接（concat）',
  'option.exponent.pair': '2i/d（维度对序号，pair）',
  'option.exponent.half-minus-one': 'i/(d/2 − 1)（half-minus-one）',
  'option.exponent.column': '2j/d（列序号，column）',
  'option.order.sin-cos': '先 sin 后 cos（sin-cos）',
  'option.order.cos-sin': '先 cos 后 sin（cos-sin）',
  'option.angle.divide': '除法（divide）',
  'option.angle.ratio-power': '比值取幂（ratio-power）',

  'intro.text': r`Transformer 的注意力把输入当作一个集合：它本身分不出哪个词元在前。因此《Attention Is All You Need》给每个词元的嵌入加上一个只取决于位置 $pos$ 的向量：

$$\begin{aligned} PE_{(pos,\,2i)} &= \sin\!\left(\frac{pos}{\text{base}^{2i/d}}\right),\\ PE_{(pos,\,2i+1)} &= \cos\!\left(\frac{pos}{\text{base}^{2i/d}}\right).\end{aligned}$$

论文取 $\text{base} = 10000$（各章的“底数”控制项可以改变它）。每对维度 $(2i, 2i+1)$ 是同一个角 $pos\cdot\omega_i$ 的正弦和余弦，角频率 $\omega_i = \text{base}^{-2i/d}$。请按章节顺序阅读：每个结论都由旁边的图展示，所有图都随控制项变化；取决于设置的句子会注明，或随设置改写。`,
  'heatmap.title': '编码表',
  'heatmap.text': (f) => r`把位置 $0, 1, \dots, L-1$ 的向量叠起来，就得到一张 $L \times d$ 的表：行是位置，列是维度。

${heatmapClocks(f)}

${rowZero(f, 'heatmap')}

把鼠标移到格子上或点按（或聚焦图后用方向键）可读出存储的数值；单击（或回车）选中该位置 $p$ 和维度 $j$。`,
  'waves.title': '每一列都是位置的正弦波',
  'waves.text': (
    f,
  ) => r`从上到下读一列：$PE_{(pos,\,j)}$ 是 $pos$ 的函数。把位置当作时间，它就是在整数位置（圆点）上采样的波。穿过圆点的曲线是同一公式在小数位置上的取值${
    f.sinusoidal
      ? r`：角频率为 $\omega_i$、周期为 $2\pi/\omega_i$ 的纯正弦波。`
      : r`。在此预设的角 $(pos/\text{base})^{e}$ 下它不是正弦波：角度与位置不成正比（见 {ref:question}）。`
  }

${wavesPace(f)}位置是时间，维度对序号 $i$ 是频率。虚线标出位置 $p$。`,
  'ladder.title': '频率按等比数列递减',
  'ladder.text': (f) =>
    f.periodic === false
      ? ladderFall(f)
      : r`${ladderFall(f)}

就像时钟上的一组指针，每根都比前一根慢同样的倍数；所有维度对一起让大约 $2\pi\cdot\text{base}$ 以内的每个位置都有独一无二的相位组合。调节底数可移动阶梯顶端；${
          f.layout === 'concat'
            ? '当前是拼接式排列，阶梯出现两次（sin 半边和 cos 半边）。'
            : '若用拼接式排列，阶梯会出现两次（sin 半边和 cos 半边）。'
        }`,
  'row.title': '一行编码一个位置',
  'row.text': (f) => r`一行就是加到该位置词元嵌入上的向量。${rowZero(f, 'row')}

${rowAt(f)}

公式对任意位置都有定义，超出表中 $L$ 行的位置也用同样方法计算（下图，$p + L$）。但有这一行，并不意味着用 $L$ 个位置训练的模型能用上它，见“超出训练长度”一节。把 $p$ 拖过 $L$，即可看到表中没有的位置的那一行。`,
  'sensitivity.title': '每个维度每步变化多少',
  'sensitivity.text': (
    f,
  ) => r`从位置 $p$ 移到 $p+1$，维度 $j$ 变化 $|PE_{(p+1,\,j)} - PE_{(p,\,j)}|$（圆点）。角频率为 $\omega$ 的正弦波一步最多变化 $2\sin(\omega/2) \le \omega$（曲线，$\omega_j$）。

${sensitivitySpan(f)}`,
  'rotation.title': '位置平移就是旋转',
  'rotation.text': r`因为一对维度的正弦和余弦共享频率 $\omega_i$，由和角公式（记 $\theta = \omega_i p$，$\phi = \omega_i k$）得
$$\begin{gathered}\begin{pmatrix}\sin(\theta + \phi)\\ \cos(\theta + \phi)\end{pmatrix} = R(\phi)\begin{pmatrix}\sin \theta\\ \cos \theta\end{pmatrix},\\ R(\phi) = \begin{pmatrix}\cos \phi & \sin \phi\\ -\sin \phi & \cos \phi\end{pmatrix}\end{gathered}$$
即 $PE(p+k) = M_k\,PE(p)$，$M_k$ 是分块对角矩阵，每对一个块 $R(\omega_i k)$：每一对转过 $\omega_i k$，**与 $p$ 无关**。只取决于 $k$ 的线性映射，注意力是可以学到的。

图中把维度 $j$ 所在的那一对画成单位圆上的点 $(\cos, \sin)$：横轴为余弦、纵轴为正弦，这是画角度的常用方式，位置增大时点按逆时针转动。（公式按表中的顺序把这一对写成 $(\sin, \cos)$，在这个顺序下 $R(\phi)$ 是顺时针转动；两者描述的是同一个转角 $\phi$。）从位置 $p$ 到 $p + k$ 转过 $\omega_i k$（灰点：中间的位置）。下方用核心计算的行在所有维度对上验证这一等式。`,
  'offset.title': '点积只取决于偏移',
  'offset.text': (f) => r`把 $PE(p)\cdot PE(p+k)$ 逐对展开：$\sin a \sin b + \cos a \cos b = \cos(b - a)$，所以
$$\begin{aligned} s(k) &= PE(p)\cdot PE(p+k)\\ &= \textstyle\sum_{i} \cos(\omega_i k)\end{aligned}$$
只取决于偏移 $k$，与 $p$ 无关，而且对称：$s(-k) = s(k)$。

${offsetTop(f)}竖直虚线标出所选偏移 $\pm k$。（奇数 $d$ 时，论文的公式给出的最后一列 $PE_{(pos,\,d-1)} = \sin(pos\,\omega)$ 没有对应的余弦，Hugging Face 和 Keras-NLP 也是这样计算的。它贡献 $\sin(\omega p)\sin(\omega(p+k))$，与 $p$ 有关：峰值变为 $(d-1)/2 + \sin^2(\omega p)$，几条曲线会略微分开；下图的分组只包含成对的维度。tensor2tensor 和 fairseq 则把这一列置零。）

${
  f.relative
    ? '下图：把同一个和按维度对分组堆叠（正值向上，负值向下；曲线是它们的和 $s(k)$）。$k = 0$ 附近每组都在叠加；离得越远，快速组互相抵消，只剩慢速组支撑相似度。'
    : '在此预设下，这个和不能按维度对拆成 $\\cos(\\omega_i k)$，因此不画分组图。'
}`,
  'similarity.title': '相似度矩阵',
  'similarity.text': (f) =>
    r`一次画出所有 $p, p' < L$ 的点积 $PE(p)\cdot PE(p')$。${
      f.relative
        ? r`因为它们只取决于 $p' - p$，矩阵沿每条对角线都是常数（托普利茨（Toeplitz）矩阵）：与主对角线平行的条带，主对角线上的值最大${f.padding === null ? '' : `——只有第 ${f.padding} 行和第 ${f.padding} 列（填充行）为零`}。`
        : r`在论文的约定下，它们只取决于 $p' - p$，矩阵沿每条对角线都是常数（托普利茨（Toeplitz）矩阵）；在当前预设下并非如此。`
    }

虚线交于 $(p, p + k)$。选择预设 *legacy-column*，条带就会散开：它的 sin 和 cos 频率不同。选择 *question* 则根本没有条带：它的角 $(p/\text{base})^{e}$ 在最初几个位置之后几乎不变，各行几乎是同一个向量，矩阵几乎是均匀的。`,
  'compare.title': '各家实现并不一致',
  'compare.text': r`已发布的代码用不同方式实现同一想法：交错排列 $[\sin, \cos, \sin, \cos, \dots]$（论文{cite:vaswani2017-implementations}）或两半拼接 $[\sin \dots \sin \mid \cos \dots \cos]$（tensor2tensor、TensorFlow 教程、fairseq）；指数用 $2i/d$ 或 $i/(d/2 - 1)$；一行全零的填充行；奇数 $d$ 时最后一列或为零（tensor2tensor、fairseq），或为没有余弦配对的正弦（论文公式、Hugging Face）。

为什么有填充行：一个小批量里较短的句子要用填充词元补齐，而从 1 开始给位置编号的代码把所有填充位置的位置索引都记为 0（fairseq 记为其填充索引 1）。这一行取零向量，就不会给填充词元加上任何东西。本页所解答的问答帖中，回答 1{cite:qa-implementations} 引用的正是这样的代码——一个早期 PyTorch 移植{cite:jadore801120}（注释写着“keep dim 0 for padding token position encoding zero vector”）：即预设 *legacy-column*，第 0 行全为零，指数用列序号（{ref:question} 错误 2）。

交错与拼接只是列的置换，模型并不在意——但两张表逐个数值都不同，用一种约定训练出的权重不能直接搭配另一种使用。左：当前约定；中：“对比对象”中选择的约定；右：两者之差。`,
  'compare.presets': '各预设',
  'compare.col.preset': '预设',
  'compare.col.layout': '排列',
  'compare.col.exponent': '指数',
  'compare.col.order': '顺序',
  'compare.col.angle': '角度',
  'compare.col.padding': '填充行',
  'compare.col.oddColumn': '奇数 d 的最后一列',
  'compare.oddZero': '零',
  'compare.oddAlone': (fn) => `单独的 ${fn}`,
  'compare.col.source': '对应实现',
  'compare.none': '无',
  'preset.vaswani': '论文（§3.5）；PyTorch 教程；Hugging Face',
  'preset.tensor2tensor': 'tensor2tensor get_timing_signal_1d',
  'preset.tf-tutorial': 'TensorFlow Transformer 教程',
  'preset.fairseq': 'fairseq SinusoidalPositionalEmbedding（第 1 行为填充）',
  'preset.legacy-column': '问答帖回答 1 的代码：早期 PyTorch 移植（指数用列序号，第 0 行为填充词元置零）',
  'preset.question': '问答帖中提问者的写法',
  'question.title': '问答帖中的尝试错在哪里',
  'question.text': r`某知名问答网站上的一个问题{cite:qa-implementations}这样计算：
$$PE_{(pos,\,j)} = \cos\!\Big(\big(\tfrac{pos}{10000}\big)^{2j/d}\Big)$$
（$j$ 为偶数；$j$ 为奇数时取同一角度的 $\sin$）。提问者参考的是 Kyubyong 的实现{cite:kyubyong}，那份代码当时同样把比值 $pos/10000$ 取幂。提问者的写法犯了三个错误。下面逐一单独展示——在论文公式上只改一处——并与论文对照。（该帖回答 1 给出的代码也有第二个错误：即预设 *legacy-column*，见 {ref:compare}。）`,
  'question.one': r`**1. 先求比值再取幂，而不是除以 base 的幂。** $(pos/\text{base})^{2i/d}$ 不等于 $pos\cdot\omega_i$：角度与位置不成正比，因此这一列没有固定频率，也就不是位置的正弦波。曲线在 $pos = 0$ 附近飞快变化，随后一直放慢；没有任何旋转 $M_k$ 能把 $PE(p)$ 变成 $PE(p+k)$。`,
  'question.two': r`**2. 指数用了列序号 $j$，而不是 $2\lfloor j/2 \rfloor$。** 一对中的正弦和余弦于是频率不同，$\sin a \sin b + \cos a' \cos b'$ 不再化简为偏移的余弦，$s(k)$ 取决于从哪里开始：三个起始位置的曲线分开了。

该帖回答 2 把指数 $2i/\text{hidden\_units}$ 理解为从 0（$i = 0$）到 2（$i = \text{hidden\_units}$）。而论文中的 $i$ 是维度对序号，最大为 $d/2 - 1$：指数始终小于 1，最慢的频率约为 $1/\text{base}$。只有这个错误——让 $i$ 取遍全部 $d$ 列——才会让指数接近 2、频率降到约 $1/\text{base}^2$（把指数选为 *column*，看 {ref:ladder} 的阶梯）。`,
  'question.three': (f) =>
    r`**3. cos 和 sin 位置互换。** 偶数列放 cos，第 0 行就变成 $1, 0, 1, 0, \dots$，而不是 $0, 1, 0, 1, \dots$。这一点对相对位置性质无害（每一对仍然是旋转），但已不是论文中的表。最下面的图是完整的尝试在位置 0 的行：除第 0 列外 $(0/\text{base})^{2j/d} = 0$，第 0 列 $0^0 = 1$。${
      f.shown < f.dModel ? `图中只显示 ${f.dModel} 维中的前 ${f.shown} 维，差别在这里看得清。` : ''
    }`,
  'check.title': '检查我的实现',
  'check.text': r`自己写了位置编码，或者从某个库里拿来一份？把它的表交给本页：页面会找出能复现它的约定、底数、起始位置、填充行和缩放（每个候选都由 posenc 计算），或者找出最接近的预设以及你的表从哪里开始与之不同，并为每一处差异用一句话说明错在哪里。

用 np.save('pe.npy', pe) 保存表（PyTorch 张量先 pe.numpy()），或存为 CSV、JSON，也可以直接粘贴数字。文件只在你的浏览器里读取，不会发送到任何地方。手头没有表？试试示例。`,
  'check.heading': '检查一张表',
  'check.drop': (mb) => `把 .npy、CSV 或 JSON 文件（不超过 ${mb} MB）拖到这里，`,
  'check.file': '或选择文件：',
  'check.paste': (mb) =>
    `或粘贴数字（CSV、JSON、numpy 或 PyTorch 的打印输出；超过 ${mb} MB 的内容直接检查，不显示在框中）：`,
  'check.dModel': '每行的数值个数（dModel），当各行不分行书写时填写',
  'check.run': '检查粘贴的表',
  'check.samples': '示例：',
  'check.sample.pytorch-float32': 'PyTorch 教程（float32 角度）',
  'check.sample.question': '问答帖中的尝试',
  'check.sample.sin-cos-swapped': 'sin/cos 互换',
  'check.sample.fairseq': 'fairseq',
  'check.sample.off-by-one': '位置从 1 开始',
  'check.pasted': '粘贴的数字',
  'check.reading': (name) => `正在读取 ${name}……`,
  'check.parsing': (name) => `正在读取 ${name} 中的数字……`,
  'check.read': ({ length, dModel, name }) =>
    `已从 ${name} 读入 ${count(length)} 行 × ${count(dModel)} 列；正在识别${length * dModel > 1e6 ? '（需要几秒钟）' : ''}……`,
  'check.longPasted': (mb) => `粘贴的数字（${n(mb)} MB，未显示在框中）`,
  'check.done': ({ length, dModel, seconds }) => `已检查 ${length} × ${dModel} 个数值，用时 ${n(seconds, 2)} 秒。`,
  'check.detail': (reason) => `详情（英文）：${reason}`,
  'check.failed.read': '无法读取该文件：选择之后它可能被移动、修改或删除了。请重新选择。',
  'check.failed.parse':
    '无法把它读成一张表。检查工具能读取二维 .npy（float32 或 float64）、CSV 或 TSV、JSON（由行组成的列表），以及 numpy 或 PyTorch 的打印输出。',
  'check.failed.identify': '检查工具无法识别这张表。',
  'check.failed.difference': '无法计算与该预设的差值。',
  'check.failed.load': '无法加载 WebAssembly 核心，因此不能检查这张表。请检查网络连接，然后点击“重试”。',
  'check.failed.sample': '无法生成示例：页面的一部分未能下载（网络是否已断开？）。请检查网络连接，然后点击“重试”。',
  'check.workerFailed': '检查工具未能启动或意外停止：其脚本没有加载成功或运行出错。请点击“重试”或刷新页面。',
  'check.slow': (seconds) =>
    `已过 ${seconds} 秒，检查工具所需的 WebAssembly 核心仍未加载完成：网络可能较慢或已断开。仍在等待；点击“重试”可重新请求。`,
  'check.retry': '重试',
  'check.empty': '请先粘贴一些数字。',
  'check.badDModel': '每行的数值个数必须是不小于 1 的整数，或者留空。',
  'check.tooBig': (mb) => `文件超过 ${mb} MB，请少保存一些行。`,
  'check.source': ({ name, length, dModel }) => `已检查：${name}，读入 ${count(length)} 行 × ${count(dModel)} 列。`,
  'check.verdict.preset': (preset) => `这就是 ${preset} 的表。`,
  'check.verdict.presetFloat32': (preset) => `这是 ${preset} 的表，但角度是用 float32 计算的。`,
  'check.verdict.knobs': (preset, count) => `已找到解释：${preset}，有 ${count} 处不同，见下文。`,
  'check.verdict.none': (preset) => `没有任何约定能解释这张表。最接近的预设是 ${preset}。`,
  'check.verdict.transposed': (preset) =>
    `这张表是转置的：它的行是维度，列是位置。转回来后，可用 ${preset} 解释（见下）。`,
  'check.about': (preset, description) => `${preset}：${description}。`,
  'check.params': '能复现它的设置',
  'check.paramsClosest': '最接近的拟合',
  'check.param.shape': '行 × 列',
  'check.param.layout': '排列方式',
  'check.param.exponent': '指数',
  'check.param.order': '顺序',
  'check.param.angle': '角度',
  'check.param.base': '底数',
  'check.param.start': '第 0 行的位置',
  'check.param.paddingRow': '填充行',
  'check.param.scale': '缩放',
  'check.param.oddColumn': '最后一列（奇数 d）',
  'check.param.angles': '角度的计算精度',
  'check.param.error': '最大拟合误差',
  'check.none': '无',
  'check.presetHas': (preset, value) => `（${preset}：${value}）`,
  'check.float32': 'float32（有舍入）',
  'check.float64': 'float64',
  'check.errorValue': (error, tolerance) => `${n(error)}（容差 ${n(tolerance)}）`,
  'check.options': '用 posenc 表示：',
  'check.diagnosis': '诊断',
  'check.exact': '没有问题：在容差内，每个值都与预设相同。',
  'check.first': ({ preset, row, column, expected, actual }) =>
    `最早在第 ${row} 行第 ${column} 列与 ${preset} 不同：${preset} 为 ${n(expected, 8)}，这张表为 ${n(actual, 8)}。`,
  'check.same': (preset) => `在容差内与 ${preset} 相同。`,
  'check.dx.transposed': ({ found: { length, dModel } }) =>
    `行与列互换了：保存前先把这个 ${length} × ${dModel} 的表转置（pe.T），变成 ${dModel} 个位置 × ${length} 个维度。`,
  'check.dx.all-zero': () => '所有数值都是零：没有可识别的编码。',
  'check.dx.too-large': () => '数值太大，不可能是位置编码：posenc 计算的每个表格都在 ±2^53 以内。',
  'check.dx.unexplained-far': ({ found: error, relative, where: { row, column }, tried = [] }) =>
    `没有任何约定能解释这张表，也没有接近的：最接近的拟合在第 ${row} 行第 ${column} 列误差达 ${n(error)}，为最大值的 ${n(100 * relative)}%。它是另一种方案（学习得到的位置编码），或者不是位置编码。${tried.length ? `已尝试：${tried.map((k) => TRIED_ZH[k]).join('；')}。` : ''}`,
  'check.dx.grid-axes-swapped': ({ found: { height, width } }) =>
    `这是一个 ${height} 行、每行 ${width} 个图块的二维网格，列的前一半编码的是行坐标（h）：MAE、DiT 和 diffusers 把列坐标（w）放在前一半（它们的代码把这一半叫作 emb_h，见 facebookresearch/mae#18），所以这张表是它们的表把 h 和 w 对调后的结果；用它们的表训练的检查点需要另一种顺序。`,
  'check.dx.grid-naming': ({ found: { height, width } }) =>
    `这是一个非正方形的二维网格，${height} 行、每行 ${width} 个图块；与 MAE 和 DiT 一样，列的前一半编码列坐标（w），而它们的代码把这一半叫作 emb_h（facebookresearch/mae#18）。如果把尺寸反过来传入，得到的是 ${width} 行、每行 ${height} 个。`,
  'check.dx.grid-several-fit': ({ found: shapes }) =>
    `有多种网格符合这个行数：${shapes.map((s) => `${s.height} × ${s.width}（${s.axisOrder}）`).join('，')}；这里显示第一种。`,
  'check.dx.relative-positions': ({ found: { first, last } }) =>
    `各行依次是位置 ${first} 递减到 ${last}，间隔为 1：这是相对位置编码表（ESPnet 的 RelPositionalEncoding 和 Transformer-XL 就是这样构造的）。`,
  'check.dx.timestep-order': () =>
    '这个时间步嵌入的顺序是 [sin | cos]（flip_sin_to_cos=False），频率为 exp(−ln(max_period) · i / half)（downscale_freq_shift=0）：guided-diffusion、DiT、latent-diffusion 以及 diffusers 的 Stable Diffusion UNet 用同样的指数，但顺序是 [cos | sin]。按另一种顺序训练的模型拿到的嵌入前后两半是对调的（Wan 就有这样的报告：flashinfer-ai/flashinfer#3819）。',
  'check.dx.timestep-shift': () =>
    '这是 downscale_freq_shift=1（频率为 exp(−ln(max_period) · i / (half − 1))），且余弦在前；diffusers 的 SDXL UNet（flip_sin_to_cos=True）和 guided-diffusion 用的是 0（kohya-ss/sd-scripts#1187）。',
  'check.dx.timesteps-unit-interval': ({ found: { first, last, maxPeriod }, ends, neighbours }) =>
    `时间步从 ${n(first, 6)} 到 ${n(last, 6)}，max_period 为 ${n(maxPeriod, 6)}：大多数列几乎不转动，所以各行几乎相同：第一行与最后一行的余弦相似度为 ${n(ends, 6)}，相邻两行至少为 ${n(neighbours, 6)}。时间步取值在 [0, 1] 的模型会先乘以 1000（diffusers 的 scale=1000）。`,
  'check.dx.whisper-sinusoids': ({ found: base }) =>
    `[sin | cos]，指数为 i/(d/2 − 1)，底数为 ${n(base, 6)}：Whisper 的 sinusoids（log_timescale_increment = log(max_timescale) / (channels/2 − 1)）、tensor2tensor 的 get_timing_signal_1d 以及 downscale_freq_shift=1 时 diffusers 的 get_timestep_embedding 算出的都是这张表。`,
  'check.verdict.grid': ({ grid: { height, width, axisOrder, extraTokens, preset } }) =>
    `这是一张二维正弦余弦网格：${height} 行、每行 ${width} 个图块，前一半的列编码${axisOrder === 'w-h' ? '列（w）' : '行（h）'}坐标${extraTokens ? `，前面还有 ${extraTokens} 行全零的词元` : ''}${preset ? `（即 ${preset === 'mae' ? 'MAE 和 DiT' : 'diffusers'} 的 get_2d_sincos_pos_embed）` : ''}。`,
  'check.verdict.grid3d': ({ grid3d: { frames, height, width, axisOrder, extraTokens, preset } }) =>
    `这是一张三维正弦余弦网格：${frames} 帧，每帧 ${height} 行、每行 ${width} 个图块；前四分之一的列编码帧序号，其余依次编码${axisOrder === 'w-h' ? '列（w）和行（h）' : '行（h）和列（w）'}坐标${extraTokens ? `，前面还有 ${extraTokens} 行全零的词元` : ''}${preset ? `（即 diffusers 的 get_3d_sincos_pos_embed${preset === 'cogvideox' ? '，CogVideoX 的用法' : ''}）` : ''}。`,
  'check.verdict.timestep': ({ timestep: { preset, timesteps } }) =>
    `这是扩散模型的时间步嵌入${preset ? `（与 ${preset} 的算法一致）` : ''}，时间步从 ${n(timesteps.first, 6)} 到 ${n(timesteps.last, 6)}。`,
  'check.verdict.positions': ({ positions: { first, step } }) =>
    step < 0
      ? `各行依次是位置 ${first} 递减经过 0 的编码，间隔为 1：这是一张相对位置表。`
      : `这是从位置 ${first} 开始的表，间隔为 ${step === 1 ? '1' : n(step, 6)}（较长序列中的一段）。`,
  'check.timesteps': ({ first, step, last }) => `${n(first, 6)}，${n(first + step, 6)}，…，${n(last, 6)}`,
  'check.verdict.far': () => '没有任何约定能解释这张表，也没有哪个预设与它接近。',
  'check.dx.unexplained': ({ found: error, where: { row: errorRow, column: errorColumn } }) =>
    `没有任何约定能解释这张表：最接近的拟合（见上）在第 ${errorRow} 行第 ${errorColumn} 列相差达 ${n(error)}。`,
  'check.dx.sin-cos-swapped': ({ preset, found: order, expected: refOrder }) =>
    `正弦和余弦互换了：每一对是 (${order.replace('-', ', ')})，而 ${preset} 是 (${refOrder.replace('-', ', ')})。`,
  'check.dx.concat-vs-interleaved': ({ preset, found: layout }) =>
    layout === 'concat'
      ? `各对被拼接成 [前半 | 后半]；${preset} 把它们交错放在偶数列和奇数列。`
      : `各对交错放在偶数列和奇数列；${preset} 把它们拼接成 [前半 | 后半]。`,
  'check.dx.exponent-uses-column': ({ preset, expectedFormula: refExponentFormula }) =>
    `频率指数用的是列序号 j（2j/d）；${preset} 用 ${refExponentFormula}，因此这里一对中的两个成员频率不同。`,
  'check.dx.exponent-uses-pair': ({ preset, expectedFormula: refExponentFormula }) =>
    `频率指数是 2i/d（维度对序号 i）；${preset} 用 ${refExponentFormula}。`,
  'check.dx.exponent-uses-half-minus-one': ({ preset, expectedFormula: refExponentFormula }) =>
    `频率指数是 i/(d/2 − 1)；${preset} 用 ${refExponentFormula}。`,
  'check.dx.ratio-power': ({ preset }) =>
    `角度是 (pos / base)^e，而 ${preset} 用 pos / base^e：幂作用在比值上，所以各列不是位置的正弦波。`,
  'check.dx.angle-divide': ({ preset }) => `角度是 pos / base^e，而 ${preset} 用 (pos / base)^e。`,
  'check.dx.base': ({ found: base, expected: refBase }) => `底数是 ${n(base, 6)}，不是 ${refBase}。`,
  'check.dx.start-off-by-one': ({ found: start, expected: refStart }) =>
    `第 0 行对应位置 ${start}，不是 ${refStart}：位置差了一。`,
  'check.dx.start-offset': ({ found: start, expected: refStart }) => `第 0 行对应位置 ${start}，不是 ${refStart}。`,
  'check.dx.missing-padding-row': ({ preset, expected: refRow }) =>
    `第 ${refRow} 行不是零：${preset} 把它作为填充行置零。`,
  'check.dx.unexpected-padding-row': ({ preset, found: row }) => `第 ${row} 行全为零（填充行）；${preset} 没有填充行。`,
  'check.dx.padding-row-moved': ({ preset, found: row, expected: refRow }) =>
    `第 ${row} 行是全零的填充行；${preset} 置零的是第 ${refRow} 行。`,
  'check.dx.scaled': ({ preset, found: scale, sqrtD, expected: refScale }) =>
    `每个值都乘了 ${n(scale, 6)}${sqrtD ? '（√dModel）' : ''}；${preset} 的缩放是 ${refScale}。`,
  'check.dx.odd-column-zero': ({ preset, width, lonePair, refFn }) =>
    `最后一列（奇数宽度 ${width}）全为零，是填充列；${preset} 在这一列按公式继续：第 i = ${lonePair} 对的 ${refFn}，缺少配对的另一半。`,
  'check.dx.odd-column-formula': ({ preset, width, lonePair, fn, likeHuggingFace }) =>
    `最后一列（奇数宽度 ${width}）按公式继续：第 i = ${lonePair} 对的 ${fn}，缺少配对的另一半${likeHuggingFace ? '（Hugging Face 和 Keras-NLP 都这样计算）' : ''}；${preset} 把它置零。`,
  'check.dx.float32-angle': ({ error, where: { row: errorRow } }) =>
    `角度是用 float32 计算的（位置 × 频率舍入到 24 位）：误差随位置增大，在第 ${errorRow} 行达到 ${n(error)}。应先用 float64 计算角度，最后再转换表的类型。`,
  'check.differenceTitle': '与预设的差',
  'check.reference': '减去此预设的表：',
  'check.largest': ({ value, row, column, marked }) =>
    `最大差值：第 ${row} 行第 ${column} 列为 ${n(value, 4)}。${marked ? '虚线标出第一个超出容差的值。' : ''}`,
  'check.identical': (preset) => `与 ${preset} 完全没有差别。`,
  'check.pixelNote': '这张表的行数或列数多于图中的像素：每个像素显示它所覆盖的单元格中最大的差值。',
  'check.legend': (power) => `差值${power ? `（× 1e${power}）` : ''}`,
  'check.readout': (row, column, value, preset) => `表 − ${preset}，[${row}, ${column}] = ${n(value, 6)}`,
  'check.hint': '将鼠标移到差值图上或点按，或聚焦后用方向键查看。',
  'check.describe': ({ rows, columns, preset, largest }) =>
    `被检查的表减去 ${preset} 的表的热图：${rows} 行 × ${columns} 列，最大差值 ${n(largest)}。`,

  'export.title': '导出当前的表、图和代码',
  'export.settings': ({ preset, overrides, base, length, dModel }) =>
    `当前设置（控制项）：${preset}${overrides.length ? `（${overrides.join('，')}）` : ''}，底数 ${base}，${length} 个位置 × ${dModel} 个维度。`,
  'export.table': '表：',
  'export.dtype': '精度',
  'export.npy': '下载 .npy',
  'export.csv': '下载 CSV',
  'export.json': '下载 JSON',
  'export.plot': '图：',
  'export.png': '下载 PNG',
  'export.svg': '下载 SVG',
  'export.code': '精确重建这张表的 Python 代码',
  'export.codeLabel': (language) => `${language} 代码`,
  'export.copy': '复制代码',
  'export.copied': '已复制到剪贴板。',
  'export.manual': '无法自动复制：代码已选中，请按 Ctrl+C（Mac 上按 ⌘C）。',
  'export.preparing': '正在准备文件……',
  'export.saved': (name) => `已保存 ${name}。`,
  'export.failed': (message) => `无法导出：${message}`,
  'export.imageLabel': '图片，用于不运行脚本的平台（知乎、微信公众号、CSDN、Medium）：图、参数设置和回到此视图的链接',
  'export.imageCopy': '复制为图片',
  'export.imageCopied': '图片（PNG）已复制到剪贴板，可直接粘贴到编辑器中。',
  'export.imageDownloaded': (name) => `剪贴板拒绝了图片，已改为保存 ${name}。`,
  'export.imageLive': '可交互的在线版本：',
  'export.unreachable': '无法导出：页面的一部分未能下载（网络是否已断开？）。请检查网络连接后再试。',
  'export.notChecked': '还没有检查任何表：请先在上方“检查一张表”中检查一张表，再导出它的差异图。',
  'export.notDrawn': '这张图还没有画出来：请先滚动到它，再导出。',

  // 图下方的“嵌入”工具（page/embed-snippet.js）。
  'embed.button': '嵌入',
  'embed.buttonLabel': (title) => `把此图（${title}）嵌入其他网页`,
  'embed.script': '脚本标签与元素（任何允许脚本的网页；无需构建）',
  'embed.iframe': 'iframe（只允许 iframe 的网站）',
  'embed.copy': '复制',
  'embed.copyLabel': (what) => `复制 ${what} 代码`,
  'embed.copied': '已复制到剪贴板。',
  'embed.manual': '无法自动复制：代码已选中，请按 Ctrl+C（Mac 上按 ⌘C）。',

  // Around the plots (page/page-sections.js): the line above each plot saying what to look at, and the fold of its numbers.
  'notes.summary': '具体数值',
  'heatmap.notice': '每一列是一个频率：越靠左的列，行与行之间变化越快。',
  'waves.notice': '比较这些波：每一列都是正弦波，列越靠右，转得越慢。',
  'ladder.notice': '看斜率：在对数坐标下，波长沿一条直线增长。',
  'row.notice': '对比几张图：快的维度对散布在 [−1, 1] 上，慢的维度对仍停在 0 和 1 附近。',
  'sensitivity.notice': '看直线下方的两支：正弦每步约变化 ω，余弦变化小得多。',
  'rotation.notice': '看点从 p 转到 p + k：无论 p 是多少，转过的角度都一样。',
  'offset-dots.notice': '看三条曲线是否重合：s(k) 与起点无关。',
  'similarity.notice': '沿对角线看：每条对角线上只有一个值。',
  'attention.notice': '找到深红色的线：对每个查询，得分最高的键都在它前面 k 个位置。',
  'attention-rows.notice': '看 softmax 的峰在哪里：在键 p − k 处，以及随机词元让它偏离多远。',
  'sine-only.notice': '看曲线分开：只用正弦时，得分取决于 p。',
  'sine-fit.notice': '逐对看最好的矩阵漏掉了平移后向量的多少。',
  'extrapolation.notice': '把 p 拖过 L，数一数有多少对维度离开了训练时覆盖的那段弧。',
  'token-scale.notice': '比较大小：乘以 √d 之后，词元向量比位置编码略大。',
  'compare.notice': '看右图：每个有颜色的格子都是两种约定数值不同的地方。',
  'mistake-ratio.notice': '看曲线在 pos = 0 附近飞快变化，随后变平：它没有固定频率。',
  'mistake-column.notice': '看曲线分开：s(k) 现在取决于起点。',
  'mistake-order.notice': '对比两张表的第 0 行：是 1, 0, 1, 0, … 而不是 0, 1, 0, 1, …',
  'why-base.notice': '找到实线最低的地方：那些基数最能区分相距很远的位置。',
  'rope-relative.notice': '看三条曲线是否重合：得分只取决于偏移 k。',
  'rope-decay.notice': '看上界随 k 增大而下降，虚线的正弦曲线与得分重合。',
  'rope-base.notice': '在标出的基数处读曲线：每个基数支持的上下文长度。',
  'rope-scaling.notice': '比较圆环和圆点：两者分开的地方，就是该方法改动过的维度对。',
  'rope-dials.notice': '看慢的表盘：内插让它们停留在学过的那段弧里。',
  'precision.notice': '沿图往下看：误差随位置增大，在低维的快速维度上最大。',

  // The end of each chapter (web/build/sources-markup.mjs).
  'sources.title': '参考资料',

  // The table of symbols (web/fragments/notation.html).
  'notation.title': '符号表',
  'notation.col.symbol': '符号',
  'notation.col.meaning': '含义',
  'notation.pos': '公式中的位置（表的一行）',
  'notation.p': '选定的位置（“位置”控件），也是查询所在的位置',
  'notation.p2': '第二个位置，例如键所在的位置',
  'notation.k': '两个位置之间的偏移，k = p′ − p（“偏移”控件）',
  'notation.i': '维度对的序号：维度 2i 与 2i + 1（或 i 与 i + d/2）组成第 i 对',
  'notation.j': '维度（列）的序号，0 ≤ j < d',
  'notation.d': '模型宽度（RoPE 中为注意力头维度）',
  'notation.L': '表长，或上下文长度',
  'notation.base': '基数：论文中为 10000，config.json 中为 rope_theta',
  'notation.omega': '第 i 对的角频率 base^(−2i/d)（RoFormer 记作 θᵢ，Hugging Face 中为 inv_freq）',
  'notation.qk': '查询向量和键向量，用粗体表示；𝐪ₚ、𝐤ₚ′ 是它们旋转到位置 p、p′ 之后的向量（RoFormer 中的 m、n）',
  'notation.pe': '位置 p 处的编码行；s(k) = PE(p)·PE(p + k)',
};
