// English strings. Rich texts: paragraphs split by a blank line, $…$ inline
// and $$…$$ display math (typeset by KaTeX), **…** bold. Functions build the
// labels and descriptions that carry live numbers. The strings the plots and
// the elements show are in plots.en.js (the elements bundle loads only those).
import { formatNumber as n, groupDigits as count } from './number.js';
import attention from './attention.en.js';
import plots from './plots.en.js';
import precision from './precision.en.js';
import checkPrecision from './check-precision.en.js';
import rope from './rope.en.js';
import ropeLab from './rope-lab.en.js';
import elsewhere from './elsewhere.en.js';

const r = String.raw;
const rows = (value) => `${count(value)} ${value === 1 ? 'row' : 'rows'}`;
const columns = (value) => `${count(value)} ${value === 1 ? 'column' : 'columns'}`;
// What identify() tried before answering no match (its `tried`).
const TRIED_EN = {
  table: '1-D tables at positions 0, 1, … (shifted by up to 3)',
  grid: '2-D and 3-D sin-cos grids (MAE, DiT, diffusers, CogVideoX; leading zero rows as class or text tokens)',
  timestep: 'timestep embeddings at evenly spaced timesteps',
  'any-start': '1-D tables from any position',
  descending: 'descending (relative) positions',
  transposed: 'the transposed table',
};

// The explanations' sentences that depend on the settings, from the facts of
// web/model/text-facts.js (f): numeric facts are absent until the plot's numbers arrive.
const halves = (f) => (f.layout === 'concat' ? ' of each half' : '');
function heatmapClocks(f) {
  if (!f.sinusoidal)
    return r`With this preset's angle $(pos/\text{base})^{e}$ the columns are no sinusoids of position: after the first rows every column barely changes ({ref:question} says why).`;
  const where =
    f.layout === 'concat'
      ? 'In each half of the row (sines, then cosines), the columns on its left'
      : 'On the left (low dimensions) the colours';
  let slow = 'on the right they change slowly.';
  if (f.slowLargest !== undefined)
    slow =
      f.slowLargest < 0.5
        ? `on the right${halves(f)} they barely change: over all ${f.length} rows the slowest sine (column ${f.slowColumn}) stays within ±${n(f.slowLargest)}.`
        : `yet at base ${n(f.base, 6)} even the slowest sine (column ${f.slowColumn}) swings up to ±${n(f.slowLargest)} over the ${f.length} rows: no dimension is slow on this scale.`;
  return `${where} change from one row to the next; ${slow} Low pair indices are fast clocks, high ones slow clocks.`;
}
/** How row 0 (place 'heatmap') or the row of position 0 (place 'row') reads. */
function rowZero(f, place) {
  const first = place === 'heatmap' ? 'Row 0 is' : 'At position 0 every angle is 0, so the row is';
  const shape = {
    padding:
      place === 'heatmap'
        ? 'Row 0 is all zeros: this preset keeps it as the padding row ({ref:compare}), the blank band at the top.'
        : 'Here that row is all zeros (top chart): this preset zeroes row 0 as the padding row ({ref:compare}).',
    'interleaved-sin-cos': r`${first} $\sin 0, \cos 0, \sin 0, \dots = 0, 1, 0, 1, \dots$${place === 'heatmap' ? ': the thin stripes at the top.' : ' (top chart).'}`,
    'interleaved-cos-sin': r`${first} $\cos 0, \sin 0, \cos 0, \dots = 1, 0, 1, 0, \dots$${place === 'heatmap' ? ': the thin stripes at the top.' : ' (top chart).'}`,
    'concat-sin-cos': r`${first} $\sin 0 = 0$ in its first half and $\cos 0 = 1$ in its second${place === 'heatmap' ? ': at the top the left half starts at 0, the right half at 1.' : ' (top chart).'}`,
    'concat-cos-sin': r`${first} $\cos 0 = 1$ in its first half and $\sin 0 = 0$ in its second${place === 'heatmap' ? ': at the top the left half starts at 1, the right half at 0.' : ' (top chart).'}`,
    ratio: r`${place === 'heatmap' ? 'In row 0' : 'At position 0'} every angle $(0/\text{base})^{e}$ is 0 except where the exponent $e$ is 0 ($0^0 = 1$): the first columns hold $\sin 1$ or $\cos 1$, the others $0$ or $1$${place === 'heatmap' ? '.' : ' (top chart).'}`,
  }[f.rowZero];
  const padding =
    f.padding !== null && f.padding !== 0
      ? ` Row ${f.padding} is all zeros: this preset's padding row ({ref:compare}).`
      : '';
  return shape + (place === 'heatmap' ? padding : '');
}
function wavesPace(f) {
  if (!f.periodic) return '';
  const fast =
    Math.abs(f.fastPeriod - 2 * Math.PI) < 1e-9
      ? `one radian per position (a period of 2π ≈ 6.3 positions)`
      : `${n((2 * Math.PI) / f.fastPeriod)} rad per position (a period of ${n(f.fastPeriod)} positions)`;
  const slow =
    f.slowTurn < 0.5
      ? `the slowest column shown (j\u00a0=\u00a0${f.slowColumn}) turns only ${n(f.slowTurn)} rad across the ${f.span} positions of the window: it hardly moves.`
      : `even the slowest column shown (j\u00a0=\u00a0${f.slowColumn}) turns ${n(f.slowTurn)} rad across the ${f.span} positions of the window: at this base and width no column stands still on this scale.`;
  return `Column ${f.fastColumn} turns ${fast}; ${slow} `;
}
function ladderFall(f) {
  if (f.periodic === false)
    return r`With this preset's angle $(pos/\text{base})^{e}$ no column has a fixed frequency, so there is no ladder to draw ({ref:question}).`;
  const slowest = f.slowest === undefined ? '' : ` (here ${n(f.slowest)})`;
  const longest = f.longest === undefined ? '' : ` (here ${n(f.longest)})`;
  if (f.exponent === 'column')
    return r`With the exponent on the column index $j$, $\omega_j = \text{base}^{-2j/d}$ falls geometrically from $1$ to almost $1/\text{base}^2$${slowest}: the exponent runs up to almost 2, as answer 2 of the Q&A reads the formula ({ref:question}, mistake 2), and the wavelength $\lambda_j = 2\pi\cdot\text{base}^{2j/d}$ grows from $2\pi$ to almost $2\pi\cdot\text{base}^2$${longest} — on a log scale, a straight line.`;
  const [omega, lambda, end, top] =
    f.exponent === 'half-minus-one'
      ? [r`\text{base}^{-i/(d/2-1)}`, r`2\pi\cdot \text{base}^{i/(d/2-1)}`, 'exactly', 'exactly']
      : [r`\text{base}^{-2i/d}`, r`2\pi\cdot \text{base}^{2i/d}`, 'almost', 'almost'];
  return `The pair index $i$ plays the role of frequency: $\\omega_i = ${omega}$ falls geometrically from $1$ to ${end} $1/\\text{base}$${slowest}, so the wavelength
$$\\lambda_i = \\frac{2\\pi}{\\omega_i} = ${lambda}$$
grows from $2\\pi$ to ${top} $2\\pi\\cdot\\text{base}$${longest} — on a log scale, a straight line.`;
}
function rowAt(f) {
  const p = f.position;
  if (f.paired === undefined)
    return r`At a position $p$ small next to the slow wavelengths the fast dimensions take values all over $[-1, 1]$ while the slow ones are still close to $0, 1$.`;
  if (!f.paired)
    return `With this preset the sine and the cosine of a pair do not turn by one angle ({ref:question}): the middle chart shows position p\u00a0=\u00a0${p} as computed.`;
  if (p === 0) return 'At p = 0 the middle chart is that row again.';
  if (f.stillPairs > 0)
    return `At position p\u00a0=\u00a0${p} the fast pairs take values all over $[-1, 1]$, while the slowest ${f.stillPairs} of the ${f.pairs} pairs have turned by less than 0.1 rad and still read about $0, 1$ (on the right${halves(f)}).`;
  return `At position p\u00a0=\u00a0${p} even the slowest pair has turned by ${n(f.slowestAngle)} rad: no pair is still near $0, 1$ (a larger base or a smaller p keeps the slow ones there).`;
}
/** Whether the slowest column's period spans the table (it separates distant rows) or wraps within it. */
const wrapping = (f) =>
  f.slowestPeriod >= f.length
    ? `: its period, ${n(f.slowestPeriod)} positions, is longer than the ${f.length} rows, so it separates distant positions without wrapping around`
    : `; but its period, ${n(f.slowestPeriod)} positions, is shorter than the ${f.length} rows: even the slowest column wraps around within the table, and rows one period apart are told apart only by the faster columns`;
function sensitivitySpan(f) {
  if (!f.sinusoidal)
    return r`With this preset's angle $(pos/\text{base})^{e}$ no column has a fixed frequency: there is no bound to compare with ({ref:question}).`;
  const numbers = f.largestChange !== undefined;
  const span = numbers
    ? `The fastest dimensions change by up to ${n(f.largestChange)} per step and tell neighbouring positions apart; the slowest column's bound is ${n(f.smallestBound)}${f.exponent === 'column' ? r` (about $1/\text{base}^2$: the exponent is on the column index)` : r` (about $1/\text{base}$)`}${wrapping(f)}.`
    : r`The first dimensions change by up to about 1 per step and tell neighbouring positions apart; the last by about $1/\text{base}$, separating distant positions without wrapping around.`;
  const branch = numbers
    ? f.lowerBranch > 0
      ? ` At p\u00a0=\u00a0${f.position}, ${f.lowerBranch} of the ${f.dModel} columns change by less than a tenth of their bound: that lower branch.`
      : ` At p\u00a0=\u00a0${f.position} no column changes by less than a tenth of its bound.`
    : '';
  return `${span}

The dots form two branches. One step moves a pair's sine by $2\\sin(\\omega/2)\\,|\\cos(\\omega(p+\\tfrac12))|$ and its cosine by $2\\sin(\\omega/2)\\,|\\sin(\\omega(p+\\tfrac12))|$: while the angle $\\omega p$ is small the sine moves by about $\\omega$ (on the line) and the cosine by only about $\\omega^2(p+\\tfrac12)$, since a cosine is flat at its top.${branch}`;
}
function offsetTop(f) {
  const together =
    f.spread === undefined
      ? 'for a convention whose pairs share one frequency they coincide.'
      : f.spread <= 1e-3 * Math.max(1, Math.abs(f.peak))
        ? 'they coincide.'
        : `here they part, by up to ${n(f.spread)}: this preset's sine and cosine do not share one frequency, so the product depends on p ({ref:question}).`;
  const halfD = f.dModel % 2 === 0 && f.peak !== undefined && Math.abs(f.peak - f.dModel / 2) < 1e-3 * f.dModel;
  const peak =
    f.peak === undefined
      ? 'The peak at $k = 0$ is $|PE(p)|^2$ ($d/2$ for the paper at even $d$)'
      : `The peak at $k = 0$ is $|PE(p)|^2$ = ${n(f.peak, 6)}${halfD ? ' = $d/2$' : ''}`;
  return `Top: $s(k)$ computed from three starting positions, overlaid — ${together} ${peak}; it falls as the fast pairs drift out of phase.`;
}

export default {
  ...rope,
  ...plots,
  ...precision,
  ...checkPrecision,
  ...elsewhere,
  ...ropeLab,
  ...attention,
  'page.title': 'Sinusoidal positional encoding, computed and explained',
  'page.skip': 'Skip to the explanations',
  'page.subtitle': 'Why the sin/cos table of “Attention Is All You Need” encodes relative position',
  'page.loading': 'Loading the WebAssembly core…',
  'page.computing': 'Computing…',
  'page.slow': (seconds) =>
    `The WebAssembly core has not arrived after ${seconds} s: the connection may be slow or down. The page keeps waiting; Retry asks for it again.`,
  'page.loadFailed':
    'The WebAssembly core could not be loaded: the connection may be down, or something blocked the file. Check the connection, then Retry.',
  'page.workerFailed':
    'The page’s computing worker could not start: its script did not load or stopped with an error. Retry, or reload the page.',
  'page.retry': 'Retry',
  'page.detail': (reason) => `Details: ${reason}`,
  'page.intro': 'Introduction',
  'page.description':
    'The positional encoding of “Attention Is All You Need” as interactive plots: why sines and cosines, why a shift is a rotation, how implementations differ, and RoPE. Computed in your browser by WebAssembly.',
  'chapter.sinusoidal': 'The sinusoidal encoding',
  'chapter.sinusoidal.page': 'The sinusoidal encoding · positional encoding, computed and explained',
  'chapter.sinusoidal.description':
    'The table of “Attention Is All You Need” as interactive plots: its columns, its frequencies, why a shift is a rotation, what attention does with it, why 10000.',
  'chapter.implementations': 'Implementations',
  'chapter.implementations.page': 'Implementations · positional encoding, computed and explained',
  'chapter.implementations.description':
    'How real implementations of the sinusoidal encoding differ, the three mistakes of a well-known Q&A attempt, a checker for your own table, and what half precision does to the angles.',
  'chapter.rope': 'RoPE',
  'chapter.rope.page': 'RoPE · positional encoding, computed and explained',
  'chapter.rope.description':
    'Rotary position embedding as interactive plots: from adding to rotating, long-term decay, choosing the base, context extension (linear, NTK, YaRN, Llama 3, LongRoPE), a checker and code.',
  'toc.summary': 'Contents',
  'toc.start': 'Start page: all chapters',
  'nav.label': 'Chapters',
  'nav.previous': 'Previous:',
  'nav.next': 'Next:',
  'start.what': 'What this site is',
  'start.qa': 'The Q&A answered',
  'start.qaText': r`A well-known question on a Q&A site asks how the table encodes position and computes it with three mistakes; two answers follow. Each of its questions and claims, in one line, with the section that answers it:`,
  'start.contents': 'Contents',
  'qa.ratio':
    'The question’s code raises the ratio pos/10000 to the power 2i/d instead of dividing pos by 10000^(2i/d)',
  'qa.column': 'The question’s code takes i over all columns, so its exponent runs up to almost 2',
  'qa.order': 'The question’s code puts the cosine on the even columns and the sine on the odd ones',
  'qa.how': '“I don’t understand how this matrix gives information about the input position”',
  'qa.correct': '“Is this the right way to compute it?” Check any table, yours included',
  'qa.padding': 'Answer 1’s PyTorch code keeps row 0 all zeros for the padding token',
  'qa.extrapolate': 'Answer 1 quotes the paper: the model may extrapolate to longer sequences than in training',
  'qa.onlyPos': 'Answer 1: the only difference between two positions is the variable pos',
  'qa.zero': 'Answer 2: position 0 alternates sin(0) and cos(0), telling only odd and even dimensions apart',
  'qa.exponent': 'Answer 2: the exponent 2i/hidden_units runs from 0 to 2',
  'qa.sensitive': 'Answer 2: the lower dimensions are more sensitive to pos than the higher ones',
  'qa.frequencies': 'Answer 2: each dimension samples a sine wave, of decreasing frequency',
  'qa.similarity': 'Answer 2: waves of different frequencies encode different similarities between positions',
  'qa.sinCos': 'Answer 2: “What are the SIN and COS terms for?”',
  'qa.hyper': 'Answer 2: “What if pos comes close to hidden_units?” (“these are hyperparameters”)',
  'page.footer': r`Every value on this page is computed live by posenc, a C++17 library compiled to WebAssembly; the page only draws. The address bar keeps the current view, so a link reproduces it.`,
  language: 'Language',

  'controls.heading': 'Knobs of the chapter',
  'controls.dModel': 'Model width d',
  'controls.length': 'Table length L (positions)',
  'controls.base': 'Base',
  'controls.preset': 'Preset (convention)',
  'controls.layout': 'Layout',
  'controls.exponent': 'Exponent',
  'controls.position': 'Position p',
  'controls.offset': 'Offset k',
  'controls.dimension': 'Dimension j',
  'controls.versus': 'Compare with',
  'controls.beyondValue': (p) => `${p} (beyond L)`,
  'controls.reset': 'Reset all',
  // The strip's labels on a phone (the full ones above stay the sliders' names).
  'controls.short.dModel': 'd',
  'controls.short.length': 'L',
  'controls.short.base': 'base',
  'controls.short.ropeDim': 'head d',

  // The controls' and the presets table's option labels; the values (URL, code) stay the code names.
  'option.preset.vaswani': 'vaswani',
  'option.preset.tensor2tensor': 'tensor2tensor',
  'option.preset.tf-tutorial': 'tf-tutorial',
  'option.preset.fairseq': 'fairseq',
  'option.preset.legacy-column': 'legacy-column',
  'option.preset.question': 'question',
  'option.layout.interleaved': 'interleaved',
  'option.layout.concat': 'concat',
  'option.exponent.pair': 'pair (2i/d)',
  'option.exponent.half-minus-one': 'half-minus-one (i/(d/2 − 1))',
  'option.exponent.column': 'column (2j/d)',
  'option.order.sin-cos': 'sin-cos',
  'option.order.cos-sin': 'cos-sin',
  'option.angle.divide': 'divide',
  'option.angle.ratio-power': 'ratio-power',

  'intro.text': r`A Transformer's attention treats its input as a set: by itself it cannot tell which token came first. *Attention Is All You Need* therefore adds to every token embedding a vector that depends only on the token's position $pos$:

$$\begin{aligned} PE_{(pos,\,2i)} &= \sin\!\left(\frac{pos}{\text{base}^{2i/d}}\right),\\ PE_{(pos,\,2i+1)} &= \cos\!\left(\frac{pos}{\text{base}^{2i/d}}\right).\end{aligned}$$

The paper takes $\text{base} = 10000$ (the Base control of the chapters changes it). Each pair of dimensions $(2i, 2i+1)$ is a sine and a cosine of one angle $pos\cdot\omega_i$ with angular frequency $\omega_i = \text{base}^{-2i/d}$. Read the chapters in order: each claim is shown by the plot beside it, and every plot follows the controls; where a sentence depends on the settings it says so, or follows them.`,
  'heatmap.title': 'The table',
  'heatmap.text': (
    f,
  ) => r`Stack the vectors of positions $0, 1, \dots, L-1$ and you get an $L \times d$ table: rows are positions, columns are dimensions.

${heatmapClocks(f)}

${rowZero(f, 'heatmap')}

Hover or tap a cell, or focus the plot and use the arrow keys, to read the stored value; click (or Enter) selects that position $p$ and dimension $j$.`,
  'waves.title': 'Every column is a sinusoid of position',
  'waves.text': (
    f,
  ) => r`Read one column from top to bottom: $PE_{(pos,\,j)}$ as a function of $pos$. Think of position as time and this is a wave sampled at the integer positions (dots). The line through them is the same formula evaluated at fractional positions${
    f.sinusoidal
      ? r`: a pure sinusoid of angular frequency $\omega_i$, period $2\pi/\omega_i$.`
      : r`. With this preset's angle $(pos/\text{base})^{e}$ it is no sinusoid: the angle is not proportional to position ({ref:question}).`
  }

${wavesPace(f)}Position is time, the pair index $i$ is frequency. The dashed line marks position $p$.`,
  'ladder.title': 'Frequencies fall geometrically',
  'ladder.text': (f) =>
    f.periodic === false
      ? ladderFall(f)
      : r`${ladderFall(f)}

Like the hands of a clock, each slower than the last by the same factor, the pairs together give every position up to about $2\pi\cdot\text{base}$ its own combination of phases. Change the base to move the top of the ladder; ${
          f.layout === 'concat'
            ? 'with this concatenated layout the ladder appears twice (sin half, cos half).'
            : 'with a concatenated layout it would appear twice (sin half, cos half).'
        }`,
  'row.title': 'One row encodes one position',
  'row.text': (f) => r`A row is the vector added to the token at that position. ${rowZero(f, 'row')}

${rowAt(f)}

The formula is defined for every position, so positions beyond the table's $L$ rows are computed the same way (bottom chart, $p + L$). That such a row exists does not mean that a model trained on $L$ positions can use it: see “Beyond the training length”. Move $p$ past $L$ to see the row of a position the table does not hold.`,
  'sensitivity.title': 'How much each dimension moves per step',
  'sensitivity.text': (
    f,
  ) => r`Moving from position $p$ to $p+1$ changes dimension $j$ by $|PE_{(p+1,\,j)} - PE_{(p,\,j)}|$ (dots). A sinusoid of angular frequency $\omega$ cannot change by more than $2\sin(\omega/2) \le \omega$ in one step (line, $\omega_j$).

${sensitivitySpan(f)}`,
  'rotation.title': 'A shift in position is a rotation',
  'rotation.text': r`Because the sine and the cosine of a pair share the frequency $\omega_i$, the angle-addition formulas give, with $\theta = \omega_i p$ and $\phi = \omega_i k$,
$$\begin{gathered}\begin{pmatrix}\sin(\theta + \phi)\\ \cos(\theta + \phi)\end{pmatrix} = R(\phi)\begin{pmatrix}\sin \theta\\ \cos \theta\end{pmatrix},\\ R(\phi) = \begin{pmatrix}\cos \phi & \sin \phi\\ -\sin \phi & \cos \phi\end{pmatrix}\end{gathered}$$
that is $PE(p+k) = M_k\,PE(p)$ with $M_k$ block-diagonal, one block $R(\omega_i k)$ per pair: every pair turns by $\omega_i k$, **whatever $p$ is**. A linear map that depends only on $k$ is something attention can learn.

The plot shows the pair of dimension $j$ as the point $(\cos, \sin)$ on the unit circle: cosine across, sine up, the usual way to draw an angle, so the point turns counter-clockwise as the position grows. (The formula lists the same pair in the table's order, $(\sin, \cos)$: in that order $R(\phi)$ turns it clockwise; both describe one rotation by $\phi$.) From position $p$ to $p + k$ it turns by $\omega_i k$ (grey dots: the positions in between). Below, the identity is checked on every pair, with rows computed by the core.`,
  'offset.title': 'Dot products depend only on the offset',
  'offset.text': (
    f,
  ) => r`Multiply $PE(p)\cdot PE(p+k)$ out pair by pair: $\sin a \sin b + \cos a \cos b = \cos(b - a)$, so
$$\begin{aligned} s(k) &= PE(p)\cdot PE(p+k)\\ &= \textstyle\sum_{i} \cos(\omega_i k)\end{aligned}$$
depends on the offset $k$ alone, not on $p$, and is symmetric: $s(-k) = s(k)$.

${offsetTop(f)} The dashed vertical lines mark the selected offset $\pm k$. (At odd $d$ the paper's formula gives a last column $PE_{(pos,\,d-1)} = \sin(pos\,\omega)$ without a cosine, and Hugging Face and Keras-NLP compute it. It adds $\sin(\omega p)\sin(\omega(p+k))$, which depends on $p$: the peak is $(d-1)/2 + \sin^2(\omega p)$ and the curves part a little; the bands below hold the pairs only. tensor2tensor and fairseq zero that column instead.)

${
  f.relative
    ? 'Bottom: the same sum split into bands of pairs, stacked (positive parts up, negative parts down; the line is their sum, $s(k)$). Near $k = 0$ every band adds up; further out the fast bands average out and the slow bands carry the similarity.'
    : 'With this preset the sum does not split into $\\cos(\\omega_i k)$ per pair, so the bands are not drawn.'
}`,
  'similarity.title': 'The similarity matrix',
  'similarity.text': (f) =>
    r`All dot products $PE(p)\cdot PE(p')$ for $p, p' < L$ at once. ${
      f.relative
        ? r`Since they depend only on $p' - p$, the matrix is constant along each diagonal (a Toeplitz matrix): bands parallel to the main diagonal, largest on it${f.padding === null ? '' : ` — except row and column ${f.padding}, the padding row, which are zero`}.`
        : r`With the paper's convention they depend only on $p' - p$ and the matrix is constant along each diagonal (a Toeplitz matrix); with the current preset they do not, and it is not.`
    }

The dashed lines cross at $(p, p + k)$. Pick the preset *legacy-column* and the bands break up: its sin and cos have different frequencies. Pick *question* and there are no bands at all: its angles $(p/\text{base})^{e}$ barely change after the first few positions, so the rows are nearly the same vector and the matrix is nearly uniform.`,
  'compare.title': 'Implementations disagree',
  'compare.text': r`Published code computes the same idea in different ways: interleaved columns $[\sin, \cos, \sin, \cos, \dots]$ (the paper{cite:vaswani2017-implementations}) or the halves $[\sin \dots \sin \mid \cos \dots \cos]$ (tensor2tensor, the TensorFlow tutorial, fairseq); the exponent $2i/d$ or $i/(d/2 - 1)$; a zero padding row; at odd $d$ a last column that is zero (tensor2tensor, fairseq) or a sine without its cosine (the paper's formula, Hugging Face).

Why a padding row: a batch pads its shorter sentences with a padding token, and code that numbers positions from 1 gives every padding slot the position index 0 (fairseq: its padding index 1). A zero vector in that row adds nothing to the padding tokens. Answer 1 of the Q&A{cite:qa-implementations} the page answers quotes such code, an early PyTorch port{cite:jadore801120} ("keep dim 0 for padding token position encoding zero vector"): it is the preset *legacy-column*, row 0 all zeros and the exponent on the column index ({ref:question}, mistake 2).

Interleaving or concatenating only permutes the columns, which a model does not care about — but the tables differ value by value, so weights trained with one cannot be reused with another. Left: the current convention; middle: the one under “Compare with”; right: their difference.`,
  'compare.presets': 'The presets',
  'compare.col.preset': 'preset',
  'compare.col.layout': 'layout',
  'compare.col.exponent': 'exponent',
  'compare.col.order': 'order',
  'compare.col.angle': 'angle',
  'compare.col.padding': 'padding row',
  'compare.col.oddColumn': 'odd d: last column',
  'compare.oddZero': 'zero',
  'compare.oddAlone': (fn) => `${fn} alone`,
  'compare.col.source': 'mirrors',
  'compare.none': 'none',
  'preset.vaswani': 'the paper (§3.5); PyTorch tutorial; Hugging Face',
  'preset.tensor2tensor': 'tensor2tensor get_timing_signal_1d',
  'preset.tf-tutorial': 'TensorFlow Transformer tutorial',
  'preset.fairseq': 'fairseq SinusoidalPositionalEmbedding (row 1 is padding)',
  'preset.legacy-column':
    'answer 1 of the Q&A: an early PyTorch port (exponent on the column index, row 0 zero for the padding token)',
  'preset.question': 'the attempt in the Q&A’s question',
  'question.title': 'What the Q&A attempt gets wrong',
  'question.text': r`A well-known question on a Q&A site{cite:qa-implementations} computes
$$PE_{(pos,\,j)} = \begin{cases}\cos\!\Big(\big(\tfrac{pos}{10000}\big)^{2j/d}\Big) & \text{for even } j,\\ \sin(\text{same}) & \text{for odd } j.\end{cases}$$
The asker started from Kyubyong's implementation{cite:kyubyong}, which at the time also raised the ratio $pos/10000$ to a power. It makes three mistakes. Each is shown alone below — the paper's formula with one thing changed — against the paper. (Answer 1 there replies with code that shares the second mistake: the preset *legacy-column*, {ref:compare}.)`,
  'question.one': r`**1. A power of the ratio instead of a division.** $(pos/\text{base})^{2i/d}$ is not $pos\cdot\omega_i$: the angle is not proportional to position, so the column has no fixed frequency and is not a sinusoid of position. The curve races near $pos = 0$ and then slows down for good; no rotation $M_k$ can map $PE(p)$ to $PE(p+k)$.`,
  'question.two': r`**2. The exponent uses the column index $j$ instead of $2\lfloor j/2 \rfloor$.** The sine and the cosine of a pair then get different frequencies, $\sin a \sin b + \cos a' \cos b'$ no longer collapses to a cosine of the offset, and $s(k)$ depends on where you start: the curves from three starting positions part.

Answer 2 of the Q&A reads the exponent $2i/\text{hidden\_units}$ as running from 0 ($i = 0$) to 2 ($i = \text{hidden\_units}$). In the paper $i$ is the pair index and stops at $d/2 - 1$: the exponent stays below 1 and the slowest frequency is about $1/\text{base}$. Only this mistake, $i$ running over all $d$ columns, takes the exponent to almost 2 and the frequencies down to about $1/\text{base}^2$ (pick the exponent *column* and see the ladder of {ref:ladder}).`,
  'question.three': (f) =>
    r`**3. cos and sin swapped.** With cos on the even columns, row 0 reads $1, 0, 1, 0, \dots$ instead of $0, 1, 0, 1, \dots$. This one is harmless for the relative property (each pair still rotates), but the table is not the paper's. The bottom chart is the whole attempt at position 0: $(0/\text{base})^{2j/d} = 0$ except in column 0, where $0^0 = 1$.${
      f.shown < f.dModel
        ? ` The charts show the first ${f.shown} of the ${f.dModel} dimensions, where the difference is visible.`
        : ''
    }`,
  'check.title': 'Check my implementation',
  'check.text': r`Wrote your own positional encoding, or took one from a library? Give its table to the page: it finds the convention, base, start, padding row and scale that reproduce it (every candidate computed by posenc), or the closest preset and where your table first departs from it, and says in one sentence per difference what went wrong.

Save the table with np.save('pe.npy', pe) (from PyTorch: pe.numpy()), as CSV or JSON, or paste the numbers. The file is read in your browser and sent nowhere. No table at hand? Try a sample.`,
  'check.heading': 'Check a table',
  'check.drop': (mb) => `Drop a .npy, CSV or JSON file here (up to ${mb} MB),`,
  'check.file': 'or choose a file:',
  'check.paste': (mb) =>
    `Or paste the numbers (CSV, JSON, a numpy or PyTorch printout; a paste over ${mb} MB is checked without being shown here):`,
  'check.dModel': 'Values per row (dModel), if the rows are not on separate lines',
  'check.run': 'Check the pasted table',
  'check.samples': 'Samples:',
  'check.sample.pytorch-float32': 'PyTorch tutorial (float32 angles)',
  'check.sample.question': 'the Q&A attempt',
  'check.sample.sin-cos-swapped': 'sin/cos swapped',
  'check.sample.fairseq': 'fairseq',
  'check.sample.off-by-one': 'positions from 1',
  'check.pasted': 'the pasted numbers',
  'check.reading': (name) => `Reading ${name}…`,
  'check.parsing': (name) => `Reading the numbers of ${name}…`,
  'check.read': ({ length, dModel, name }) =>
    `Read ${rows(length)} × ${columns(dModel)} from ${name}; identifying${length * dModel > 1e6 ? ' (a few seconds)' : ''}…`,
  'check.longPasted': (mb) => `the pasted numbers (${n(mb)} MB, not shown in the box)`,
  'check.done': ({ length, dModel, seconds }) => `Checked ${length} × ${dModel} values in ${n(seconds, 2)} s.`,
  'check.detail': (reason) => `Details: ${reason}`,
  'check.failed.read':
    'The file could not be read: it may have been moved, changed or deleted since it was chosen. Choose it again.',
  'check.failed.parse':
    'This is not a table the checker can read. It reads a 2-D .npy (float32 or float64), CSV or TSV, JSON (a list of rows), or a numpy or PyTorch printout.',
  'check.failed.identify': 'The checker could not identify this table.',
  'check.failed.difference': 'The difference from this preset could not be computed.',
  'check.failed.load':
    'The WebAssembly core could not be loaded, so the table cannot be checked. Check the connection, then Retry.',
  'check.failed.sample':
    'The sample could not be built: part of the page could not be fetched (is the connection down?). Check the connection, then Retry.',
  'check.workerFailed':
    'The checker could not start, or stopped unexpectedly: its script did not load or failed. Retry, or reload the page.',
  'check.slow': (seconds) =>
    `The WebAssembly core the checker needs has not arrived after ${seconds} s: the connection may be slow or down. Still waiting; Retry asks again.`,
  'check.retry': 'Retry',
  'check.empty': 'Paste some numbers first.',
  'check.badDModel': 'Values per row must be a whole number of at least 1, or left empty.',
  'check.tooBig': (mb) => `This file is larger than ${mb} MB; save fewer rows.`,
  'check.source': ({ name, length, dModel }) => `Checked: ${name}, read as ${rows(length)} × ${columns(dModel)}.`,
  'check.verdict.preset': (preset) => `This is the ${preset} table.`,
  'check.verdict.presetFloat32': (preset) => `This is the ${preset} table, with its angles computed in float32.`,
  'check.verdict.knobs': (preset, count) =>
    `Explained: ${preset} with ${count === 1 ? 'one difference' : `${count} differences`}, listed below.`,
  'check.verdict.none': (preset) => `No convention explains this table. The closest preset is ${preset}.`,
  'check.verdict.transposed': (preset) =>
    `This table is transposed: its rows are dimensions and its columns positions. Turned back, it is explained by ${preset} (below).`,
  'check.about': (preset, description) => `${preset}: ${description}.`,
  'check.params': 'The settings that reproduce it',
  'check.paramsClosest': 'The closest fit',
  'check.param.shape': 'rows × columns',
  'check.param.layout': 'layout',
  'check.param.exponent': 'exponent',
  'check.param.order': 'order',
  'check.param.angle': 'angle',
  'check.param.base': 'base',
  'check.param.start': 'position of row 0',
  'check.param.paddingRow': 'padding row',
  'check.param.scale': 'scale',
  'check.param.oddColumn': 'last column (odd d)',
  'check.param.angles': 'angles computed in',
  'check.param.error': 'largest misfit',
  'check.none': 'none',
  'check.presetHas': (preset, value) => `(${preset}: ${value})`,
  'check.float32': 'float32 (rounded)',
  'check.float64': 'float64',
  'check.errorValue': (error, tolerance) => `${n(error)} (tolerance ${n(tolerance)})`,
  'check.options': 'In posenc:',
  'check.diagnosis': 'Diagnosis',
  'check.exact': 'Nothing to report: every value is the preset’s, within the tolerance.',
  'check.first': ({ preset, row, column, expected, actual }) =>
    `First departs from ${preset} at row ${row}, column ${column}: ${preset} has ${n(expected, 8)}, this table ${n(actual, 8)}.`,
  'check.same': (preset) => `Equal to ${preset} within the tolerance.`,
  'check.dx.transposed': ({ found: { length, dModel } }) =>
    `Rows and columns are swapped: transpose the ${length} × ${dModel} table (pe.T) into ${dModel} positions × ${length} dimensions before saving it.`,
  'check.dx.all-zero': () => 'Every value is zero: there is no encoding to identify.',
  'check.dx.too-large': () =>
    'The values are too large to be a positional encoding: every table posenc computes stays within ±2^53.',
  'check.dx.unexplained-far': ({ found: error, relative, where: { row, column }, tried = [] }) =>
    `No convention explains this table, nor comes near it: the closest fit is off by up to ${n(error)}, ${n(100 * relative)}% of the largest value, at row ${row}, column ${column}. It is another scheme (learned positions) or no positional encoding.${tried.length ? ` Tried: ${tried.map((k) => TRIED_EN[k]).join('; ')}.` : ''}`,
  'check.dx.grid-axes-swapped': ({ found: { height, width } }) =>
    `A 2-D grid of ${height} rows of ${width} patches whose first half of the columns encodes the row (h) coordinate: MAE, DiT and diffusers put the column (w) coordinate first (their code calls that half emb_h: facebookresearch/mae#18), so this is their table with h and w swapped; a checkpoint trained with theirs expects the other order.`,
  'check.dx.grid-naming': ({ found: { height, width } }) =>
    `A non-square 2-D grid of ${height} rows of ${width} patches, the first half of the columns encoding the column (w) coordinate as in MAE and DiT, whose code calls that half emb_h (facebookresearch/mae#18): sizes passed the other way round give ${width} rows of ${height}.`,
  'check.dx.grid-several-fit': ({ found: shapes }) =>
    `Several grids fit this row count: ${shapes.map((s) => `${s.height} × ${s.width} (${s.axisOrder})`).join(', ')}; the first is shown.`,
  'check.dx.relative-positions': ({ found: { first, last } }) =>
    `The rows are positions ${first} down to ${last}, one apart: a relative-position table (as ESPnet's RelPositionalEncoding and Transformer-XL build it).`,
  'check.dx.timestep-order': () =>
    "The timestep embedding is [sin | cos] (flip_sin_to_cos=False) with frequencies exp(−ln(max_period) · i / half) (downscale_freq_shift=0): guided-diffusion, DiT, latent-diffusion and diffusers' Stable Diffusion UNets use this exponent with [cos | sin]. A model trained with the other order gets its halves swapped (as reported for Wan: flashinfer-ai/flashinfer#3819).",
  'check.dx.timestep-shift': () =>
    "This is downscale_freq_shift=1 (frequencies exp(−ln(max_period) · i / (half − 1))) with cos first; diffusers' SDXL UNet (flip_sin_to_cos=True) and guided-diffusion use 0 (kohya-ss/sd-scripts#1187).",
  'check.dx.timesteps-unit-interval': ({ found: { first, last, maxPeriod }, ends, neighbours }) =>
    `The timesteps run from ${n(first, 6)} to ${n(last, 6)} at max_period ${n(maxPeriod, 6)}: most columns barely turn, so the rows are nearly constant: the first and last rows have cosine similarity ${n(ends, 6)}, neighbouring rows at least ${n(neighbours, 6)}. Models with t in [0, 1] multiply it by 1000 first (diffusers' scale=1000).`,
  'check.dx.whisper-sinusoids': ({ found: base }) =>
    `[sin | cos] with exponent i/(d/2 − 1) and base ${n(base, 6)}: Whisper's sinusoids (log_timescale_increment = log(max_timescale) / (channels/2 − 1)), tensor2tensor's get_timing_signal_1d and diffusers' get_timestep_embedding with downscale_freq_shift=1 compute this table.`,
  'check.verdict.grid': ({ grid: { height, width, axisOrder, extraTokens, preset } }) =>
    `This is a 2-D sin-cos grid of ${height} rows of ${width} patches, the ${axisOrder === 'w-h' ? 'column (w)' : 'row (h)'} coordinate in the first half of the columns${extraTokens ? `, after ${extraTokens} all-zero token row${extraTokens > 1 ? 's' : ''}` : ''}${preset ? ` (${preset === 'mae' ? 'MAE and DiT' : 'diffusers'}' get_2d_sincos_pos_embed)` : ''}.`,
  'check.verdict.grid3d': ({ grid3d: { frames, height, width, axisOrder, extraTokens, preset } }) =>
    `This is a 3-D sin-cos grid of ${frames} frames of ${height} rows of ${width} patches: the frame in the first quarter of the columns, then the ${axisOrder === 'w-h' ? 'column (w) and row (h)' : 'row (h) and column (w)'} coordinates${extraTokens ? `, after ${extraTokens} all-zero token row${extraTokens > 1 ? 's' : ''}` : ''}${preset ? ` (diffusers' get_3d_sincos_pos_embed${preset === 'cogvideox' ? ' as CogVideoX calls it' : ''})` : ''}.`,
  'check.verdict.timestep': ({ timestep: { preset, timesteps } }) =>
    `This is a diffusion timestep embedding${preset ? ` as ${preset} computes it` : ''}, at timesteps ${n(timesteps.first, 6)} to ${n(timesteps.last, 6)}.`,
  'check.verdict.positions': ({ positions: { first, step } }) =>
    step < 0
      ? `These are the rows of ${first} down through 0, one apart: a relative-position table.`
      : `This is the table from position ${first} on, ${step === 1 ? 'one' : n(step, 6)} apart (a chunk of a longer sequence).`,
  'check.timesteps': ({ first, step, last }) => `${n(first, 6)}, ${n(first + step, 6)}, … ${n(last, 6)}`,
  'check.verdict.far': () => 'No convention explains this table, and no preset comes near it.',
  'check.dx.unexplained': ({ found: error, where: { row: errorRow, column: errorColumn } }) =>
    `No convention explains this table: the closest fit (above) is off by up to ${n(error)} at row ${errorRow}, column ${errorColumn}.`,
  'check.dx.sin-cos-swapped': ({ preset, found: order, expected: refOrder }) =>
    `Sine and cosine are swapped: each pair is (${order.replace('-', ', ')}) where ${preset} has (${refOrder.replace('-', ', ')}).`,
  'check.dx.concat-vs-interleaved': ({ preset, found: layout }) =>
    layout === 'concat'
      ? `The pairs are concatenated as [first half | second half]; ${preset} interleaves them in even and odd columns.`
      : `The pairs are interleaved in even and odd columns; ${preset} concatenates them as [first half | second half].`,
  'check.dx.exponent-uses-column': ({ preset, expectedFormula: refExponentFormula }) =>
    `The frequency exponent is 2j/d with the column index j; ${preset} uses ${refExponentFormula}, so here the two members of a pair get different frequencies.`,
  'check.dx.exponent-uses-pair': ({ preset, expectedFormula: refExponentFormula }) =>
    `The frequency exponent is 2i/d (pair index i); ${preset} uses ${refExponentFormula}.`,
  'check.dx.exponent-uses-half-minus-one': ({ preset, expectedFormula: refExponentFormula }) =>
    `The frequency exponent is i/(d/2 − 1); ${preset} uses ${refExponentFormula}.`,
  'check.dx.ratio-power': ({ preset }) =>
    `The angle is (pos / base)^e where ${preset} uses pos / base^e: the power applies to the ratio, so the columns are not sinusoids of the position.`,
  'check.dx.angle-divide': ({ preset }) => `The angle is pos / base^e where ${preset} uses (pos / base)^e.`,
  'check.dx.base': ({ found: base, expected: refBase }) => `The base is ${n(base, 6)}, not ${refBase}.`,
  'check.dx.start-off-by-one': ({ found: start, expected: refStart }) =>
    `Row 0 is position ${start}, not ${refStart}: the positions are off by one.`,
  'check.dx.start-offset': ({ found: start, expected: refStart }) => `Row 0 is position ${start}, not ${refStart}.`,
  'check.dx.missing-padding-row': ({ preset, expected: refRow }) =>
    `Row ${refRow} is not zero: ${preset} zeroes it as the padding row.`,
  'check.dx.unexpected-padding-row': ({ preset, found: row }) =>
    `Row ${row} is all zeros (a padding row); ${preset} has no padding row.`,
  'check.dx.padding-row-moved': ({ preset, found: row, expected: refRow }) =>
    `Row ${row} is the zero padding row; ${preset} zeroes row ${refRow}.`,
  'check.dx.scaled': ({ preset, found: scale, sqrtD, expected: refScale }) =>
    `Every value is multiplied by ${n(scale, 6)}${sqrtD ? ' (√dModel)' : ''}; ${preset} uses scale ${refScale}.`,
  'check.dx.odd-column-zero': ({ preset, width, lonePair, refFn }) =>
    `The last column (odd width ${width}) is all zeros, a padding column; ${preset} continues the formula there: a ${refFn} at pair index i = ${lonePair} without its partner.`,
  'check.dx.odd-column-formula': ({ preset, width, lonePair, fn, likeHuggingFace }) =>
    `The last column (odd width ${width}) continues the formula: a ${fn} at pair index i = ${lonePair} without its partner${likeHuggingFace ? ' (as Hugging Face and Keras-NLP compute it)' : ''}; ${preset} leaves it zero.`,
  'check.dx.float32-angle': ({ error, where: { row: errorRow } }) =>
    `The angles were computed in float32 (position × frequency rounded to 24 bits): the error grows with position, up to ${n(error)} at row ${errorRow}. Compute the angles in float64 and cast the table afterwards.`,
  'check.differenceTitle': 'Difference from a preset',
  'check.reference': 'Subtract the table of',
  'check.largest': ({ value, row, column, marked }) =>
    `Largest difference: ${n(value, 4)} at row ${row}, column ${column}.${marked ? ' Dashed lines: the first value beyond the tolerance.' : ''}`,
  'check.identical': (preset) => `No difference at all from ${preset}.`,
  'check.pixelNote':
    'The table has more rows or columns than the picture has pixels: each pixel shows the largest difference among the cells it covers.',
  'check.legend': (power) => `difference${power ? ` (× 1e${power})` : ''}`,
  'check.readout': (row, column, value, preset) => `table − ${preset} at [${row}, ${column}] = ${n(value, 6)}`,
  'check.hint': 'Hover or tap the difference, or focus it and use the arrow keys.',
  'check.describe': ({ rows, columns, preset, largest }) =>
    `Heatmap of the checked table minus the ${preset} table: ${rows} rows by ${columns} columns, largest difference ${n(largest)}.`,

  'export.title': 'Export the current table, plots and code',
  'export.settings': ({ preset, overrides, base, length, dModel }) =>
    `Current settings (the controls): ${preset}${overrides.length ? ` (${overrides.join(', ')})` : ''}, base ${base}, ${length} positions × ${dModel} dimensions.`,
  'export.table': 'Table:',
  'export.dtype': 'precision',
  'export.npy': 'Download .npy',
  'export.csv': 'Download CSV',
  'export.json': 'Download JSON',
  'export.plot': 'Plot:',
  'export.png': 'Download PNG',
  'export.svg': 'Download SVG',
  'export.code': 'Python that rebuilds exactly this table',
  'export.codeLabel': (language) => `${language} code`,
  'export.copy': 'Copy the code',
  'export.copied': 'Copied to the clipboard.',
  'export.manual': 'Could not copy automatically: the code is selected, press Ctrl+C (⌘C on a Mac).',
  'export.preparing': 'Preparing the file…',
  'export.saved': (name) => `Saved ${name}.`,
  'export.failed': (message) => `Could not export: ${message}`,
  'export.imageLabel':
    'Image, for platforms that run no script (Zhihu, WeChat, CSDN, Medium): the plot, its settings and a link back to this view',
  'export.imageCopy': 'Copy as image',
  'export.imageCopied': 'The image (PNG) is on the clipboard: paste it into your editor.',
  'export.imageDownloaded': (name) => `The clipboard refused the image: saved ${name} instead.`,
  'export.imageLive': 'Live and interactive:',
  'export.unreachable':
    'Could not export: part of the page could not be fetched (is the connection down?). Check the connection and try again.',
  'export.notChecked':
    'Nothing checked yet: check a table first (Check a table, above), then export its difference plot.',
  'export.notDrawn': 'This plot has not been drawn yet: scroll to it, then export.',

  // The "Embed" tools under the plots (page/embed-snippet.js).
  'embed.button': 'Embed',
  'embed.buttonLabel': (title) => `Embed this plot (${title}) in another page`,
  'embed.script': 'Script tag + element (any page that allows scripts; no build step)',
  'embed.iframe': 'iframe (for sites that only allow iframes)',
  'embed.copy': 'Copy',
  'embed.copyLabel': (what) => `Copy the ${what} snippet`,
  'embed.copied': 'Copied to the clipboard.',
  'embed.manual': 'Could not copy automatically: the snippet is selected, press Ctrl+C (⌘C on a Mac).',

  // Around the plots (page/page-sections.js): the line above each plot saying what to look at, and the fold of its numbers.
  'notes.summary': 'The numbers',
  'heatmap.notice': 'Each column is one frequency: the left columns change fastest from row to row.',
  'waves.notice':
    'Compare the waves: every column is a sinusoid, and the further right its column, the slower it turns.',
  'ladder.notice': 'Read the slope: on a log scale the wavelength grows along a straight line.',
  'row.notice': 'Compare the charts: fast pairs spread over [−1, 1] while slow pairs stay near 0 and 1.',
  'sensitivity.notice':
    'Look at the two branches under the line: sines move by about ω per step, cosines by much less.',
  'rotation.notice': 'Watch the point turn from p to p + k: the angle is the same whatever p is.',
  'offset-dots.notice':
    'Check that the three curves lie on top of each other: s(k) does not depend on where you start.',
  'similarity.notice': 'Look along the diagonals: each one holds a single value.',
  'attention.notice': 'Find the dark red line: for every query the best key sits k positions before it.',
  'attention-rows.notice': 'See where the softmax peaks: at the key p − k, and how far random tokens move it.',
  'sine-only.notice': 'Watch the curves part: with sines alone the score depends on p.',
  'sine-fit.notice': 'Read, pair by pair, how much of the shifted vector the best matrix misses.',
  'extrapolation.notice': 'Move p past L and count the pairs that leave the arc they covered in training.',
  'token-scale.notice': 'Compare the sizes: multiplied by √d, the token is a little larger than the encoding.',
  'compare.notice': 'Look at the right panel: every coloured cell is a value the two conventions disagree on.',
  'mistake-ratio.notice': 'See the curve race near pos = 0 and then flatten: it has no fixed frequency.',
  'mistake-column.notice': 'Watch the curves part: s(k) now depends on where you start.',
  'mistake-order.notice': 'Compare row 0 of the two tables: 1, 0, 1, 0, … instead of 0, 1, 0, 1, …',
  'why-base.notice': 'Find where the solid curve is lowest: the bases that tell distant positions apart best.',
  'rope-relative.notice': 'Check that the three curves coincide: the score depends only on the offset k.',
  'rope-decay.notice': 'Follow the bound as k grows: it falls, and the dashed sinusoidal curve lies on the score.',
  'rope-base.notice': 'Read the curve at the marked bases: the context each one supports.',
  'rope-scaling.notice': 'Compare rings and dots: where they part, the method changed that pair.',
  'rope-dials.notice': 'Watch the slow dials: interpolation keeps them inside the arc they learned.',
  'precision.notice': 'Look down the map: the error grows with position and is largest in the fast low dimensions.',

  // The end of each chapter (web/build/sources-markup.mjs).
  'sources.title': 'Sources',

  // The table of symbols (web/fragments/notation.html).
  'notation.title': 'Notation',
  'notation.col.symbol': 'symbol',
  'notation.col.meaning': 'meaning',
  'notation.pos': 'a position (a row of the table) in the formulas',
  'notation.p': 'the selected position (the Position control), also the query’s position',
  'notation.p2': 'a second position, such as the key’s',
  'notation.k': 'the offset between two positions, k = p′ − p (the Offset control)',
  'notation.i': 'the pair index: dimensions 2i and 2i + 1 (or i and i + d/2) form pair i',
  'notation.j': 'a dimension (column) index, 0 ≤ j < d',
  'notation.d': 'the model width (for RoPE, the head dimension)',
  'notation.L': 'the table length, or the context length',
  'notation.base': 'the base: 10000 in the paper, rope_theta in a config.json',
  'notation.omega': 'the angular frequency of pair i, base^(−2i/d) (RoFormer writes θᵢ, Hugging Face inv_freq)',
  'notation.qk':
    'a query and a key vector, in bold; 𝐪ₚ and 𝐤ₚ′ are them rotated to positions p and p′ (RoFormer’s m and n)',
  'notation.pe': 'the encoding’s row at position p; s(k) = PE(p)·PE(p + k)',
};
