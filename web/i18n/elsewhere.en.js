// English prose of the chapter "the same sinusoids elsewhere"; en.js spreads
// it in. Rich texts as in en.js.
const r = String.raw;

export default {
  'chapter.elsewhere': 'The same sinusoids elsewhere',
  'chapter.elsewhere.page': 'The same sinusoids elsewhere · positional encoding, computed and explained',
  'chapter.elsewhere.description':
    'Diffusion timestep embeddings, 2-D sin-cos grids of vision transformers and relative position tables: the sinusoidal encoding in other conventions, computed, with NumPy and PyTorch code that rebuilds each.',

  'controls.tsPreset': 'Timestep preset',
  'controls.flipSinToCos': 'flip_sin_to_cos',
  'controls.freqShift': 'downscale_freq_shift',
  'controls.maxPeriod': 'max_period',
  'controls.tsRange': 'Timestep range',
  'controls.gridHeight': 'Grid height (patch rows)',
  'controls.gridWidth': 'Grid width (patch columns)',
  'controls.axisOrder': 'Axis order',
  'controls.gridColumn': 'Column shown',
  'controls.gridPatch': 'Chosen patch',
  'controls.patchValue': (row, column) => `row ${row}, column ${column}`,
  'controls.relLength': 'Sequence length T (relative table)',
  'controls.chunkStart': 'Chunk start',
  'option.flipSinToCos.false': 'False: [sin | cos]',
  'option.flipSinToCos.true': 'True: [cos | sin]',
  'option.tsRange.1000': '0 … 1000 (integer steps)',
  'option.tsRange.1': '0 … 1 (flow matching)',
  'option.axisOrder.w-h': 'w-h: width first (MAE, DiT)',
  'option.axisOrder.h-w': 'h-w: height first',

  'elsewhereCode.language': 'Code',
  'elsewhereCode.copy': 'Copy',
  'elsewhereCode.copied': 'Copied.',
  'elsewhereCode.failed': (message) => `These settings cannot be computed: ${message}`,

  'timestep.title': 'Diffusion timestep embeddings',
  'timestep.text': r`A diffusion model tells its network the noise level through the timestep $t$, embedded with the same sinusoids as a token position {cite:ddpm}: $\text{emb}(t) = [\sin(t\,\omega_i) \mid \cos(t\,\omega_i)]$, $\omega_i = \text{max\_period}^{-i/(h - s)}$, $h = \lfloor d/2 \rfloor$. guided-diffusion {cite:guided-diffusion}, DiT {cite:dit} and latent-diffusion put the cosines first and use $s = 0$; diffusers' get_timestep_embedding {cite:diffusers} defaults to sines first and $s = 1$ (downscale_freq_shift), which Stable Diffusion's UNets set back to 0 and flip. Setting it to 1 where the checkpoint was trained with 0 shifts every frequency {cite:sd-scripts-1187} {cite:diffusers-12791}. The frequencies reach from 1 down to $1/\text{max\_period}$: they suit $t$ in 0 … 1000. Models that sample $t$ in 0 … 1 (flow matching) with max_period 10000 turn even the fastest pair by at most one radian, and every slower pair barely at all: the embeddings of all timesteps are nearly the same vector, as the second plot measures.`,
  'timestep.after': r`The code below rebuilds the heatmap's rows for the current settings, in float64 with diffusers' formula, then float32 (as the core computes them: the float64 value rounded).`,
  'timestep.codeLabel': 'Code of the timestep embedding',
  'timestep-embedding.title': 'The embedding against t',
  'timestep-similarity.title': 'Similarity to t = 0: 0 … 1000 against 0 … 1',
  'timestep-embedding.notice':
    'Switch the range to 0 … 1: all but the first few columns turn into flat stripes, the same value at every timestep.',
  'timestep-similarity.notice':
    'Over 0 … 1000 the similarity falls towards 0; over 0 … 1 it stays near 1 (the notes give the numbers).',

  'grid.title': 'A 2-D sin-cos grid',
  'grid.text': r`Vision transformers cut an image into a grid of $h \times w$ patches. MAE {cite:mae} {cite:mae-code} and DiT give patch $(r, c)$ the 1-D sinusoidal row of $c$ in one half of its $d$ columns and the row of $r$ in the other, each half with $d/4$ frequencies (the chapter uses $d$ rounded down to a multiple of 4). One column is then a wave along one axis, constant along the other. The dot product of two patches is the sum of the two halves' products: each depends only on the difference of its coordinate, as {ref:offset} showed in 1-D, so the product depends only on the 2-D offset $(\Delta r, \Delta c)$. MAE's code names the axes the other way round (its grid's first coordinate is the width): a non-square grid built with $h$ and $w$ swapped {cite:mae-18} gives patches the coordinates of a $w \times h$ grid read row by row, and the products stop depending on the offset alone.`,
  'grid.after': r`The code below rebuilds the grid for the current height, width and axis order, as MAE's get_2d_sincos_pos_embed does, in float64, then float32.`,
  'grid.codeLabel': 'Code of the 2-D grid',
  'grid-column.title': 'One column as an image',
  'grid-dots.title': 'Dot products from the chosen patch',
  'grid-swapped.title': 'The same, height and width swapped',
  'grid-column.notice': 'Move the column: the first half varies along one axis, the second along the other.',
  'grid-dots.notice':
    'Choose another patch: the pattern moves with it unchanged, since the products depend only on the 2-D offset.',
  'grid-swapped.notice':
    'With a non-square grid this image is no shifted copy of the one above: the note measures how far it is from one.',

  'relative.title': 'Relative tables and streaming chunks',
  'relative.text': r`Relative attention needs the encoding of every offset between a query and a key, negative ones included. ESPnet's RelPositionalEncoding {cite:espnet} builds rows at positions $T - 1$ down to $-(T - 1)$ for a sequence of $T$ frames, as Transformer-XL {cite:transformer-xl} builds its descending positions; a streaming model encodes a chunk that starts at position 64 rather than 0 (ESPnet's StreamPositionalEncoding). No new table is needed: $\sin(-x) = -\sin x$ and $\cos(-x) = \cos x$, so every row is a row of the table from 0, with its sines negated at negative positions, and a chunk is a slice of it. The notes check both against the core's table.`,
  'relative.after': r`The code below rebuilds the relative table (the paper's interleaved convention at ESPnet's positions).`,
  'relative.codeLabel': 'Code of the relative table',
  'relative-table.notice':
    'Find the middle row (position 0): the rows above and below it mirror each other in the cosine columns.',
};
