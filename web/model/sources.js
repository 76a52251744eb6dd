// Owns the site's sources: every paper, post, code path and issue its text
// cites, as data, by the chapter whose "Sources" list holds it
// (web/build/sources-markup.mjs writes the lists). The text cites an entry with
// the marker {cite:<id>} (web/page/rich-text.js), a link to #source-<id> in
// the same chapter; a work cited in two chapters has one entry in each, the
// second id suffixed with its chapter. Titles stay in their own language; the
// words around them are in web/i18n. tests/js/model/sources.test.js checks
// that every entry is cited from its chapter and every link of the text is here.

import { CHAPTERS } from './registry.js';

/** The chapters with a list of sources, in site order (every chapter of the registry). */
export const SOURCE_CHAPTERS = Object.freeze(CHAPTERS.map((chapter) => chapter.name));

const ARXIV = (id) => `https://arxiv.org/abs/${id}`;
const QA = 'https://stackoverflow.com/questions/46452020/sinusoidal-embedding-attention-is-all-you-need';
const QA_TITLE = 'Sinusoidal embedding - Attention is all you need';
const VASWANI = {
  authors: 'Vaswani et al.',
  year: 2017,
  title: 'Attention Is All You Need',
  href: ARXIV('1706.03762'),
};
const MEN = {
  authors: 'Men et al.',
  year: 2024,
  title: 'Base of RoPE Bounds Context Length',
  href: ARXIV('2405.14591'),
};

/**
 * Every source, grouped by chapter in the order its list shows them:
 * { id, chapter, href, authors, year (null when unknown), title }.
 */
export const SOURCES = Object.freeze(
  [
    // The sinusoidal encoding: the table, its waves… why 10000, attention, extrapolation, the FAQ.
    { id: 'vaswani2017', chapter: 'sinusoidal', ...VASWANI },
    { id: 'qa', chapter: 'sinusoidal', href: QA, authors: 'Stack Overflow', year: 2017, title: QA_TITLE },
    { id: 'men2024-sinusoidal', chapter: 'sinusoidal', ...MEN },
    {
      id: 'press2021',
      chapter: 'sinusoidal',
      href: ARXIV('2108.12409'),
      authors: 'Press, Smith, Lewis',
      year: 2021,
      title: 'Train Short, Test Long: Attention with Linear Biases Enables Input Length Extrapolation',
    },
    {
      id: 'haviv2022',
      chapter: 'sinusoidal',
      href: ARXIV('2203.16634'),
      authors: 'Haviv et al.',
      year: 2022,
      title: 'Transformer Language Models without Positional Encodings Still Learn Positional Information',
    },
    {
      id: 'kazemnejad2023',
      chapter: 'sinusoidal',
      href: ARXIV('2305.19466'),
      authors: 'Kazemnejad et al.',
      year: 2023,
      title: 'The Impact of Positional Encoding on Length Generalization in Transformers',
    },

    // Implementations: compare, the Q&A's code, check, precision.
    { id: 'vaswani2017-implementations', chapter: 'implementations', ...VASWANI },
    {
      id: 'qa-implementations',
      chapter: 'implementations',
      href: QA,
      authors: 'Stack Overflow',
      year: 2017,
      title: QA_TITLE,
    },
    {
      // modules.py as it was when the question was asked (September 2017): positional_encoding
      // computes (pos / 10000)^(i / (d/2)), the power of the ratio the question copies.
      id: 'kyubyong',
      chapter: 'implementations',
      href: 'https://github.com/Kyubyong/transformer/blob/caff470f3f6d148d28583c15f382dabb89dccae2/modules.py#L120-L163',
      authors: 'Kyubyong Park',
      year: 2017,
      title: 'Kyubyong/transformer, modules.py: positional_encoding',
    },
    {
      // The code answer 1 quotes, verbatim, before the repository's fix of 2017-11-19.
      id: 'jadore801120',
      chapter: 'implementations',
      href: 'https://github.com/jadore801120/attention-is-all-you-need-pytorch/blob/1600401b30eacd3747184827fd40d97752a7627b/transformer/Models.py#L11-L21',
      authors: 'Yu-Hsiang Huang',
      year: 2017,
      title: 'attention-is-all-you-need-pytorch, transformer/Models.py: position_encoding_init',
    },
    {
      id: 'gpt-neox-1003',
      chapter: 'implementations',
      href: 'https://github.com/EleutherAI/gpt-neox/issues/1003',
      authors: 'EleutherAI/gpt-neox',
      year: 2023,
      title:
        '#1003: RotaryEmbedding computation is wrong for certain position/feature pairs in reduced precision (both fp16 and bfloat)',
    },
    {
      id: 'gpt-neox-1041',
      chapter: 'implementations',
      href: 'https://github.com/EleutherAI/gpt-neox/pull/1041',
      authors: 'EleutherAI/gpt-neox',
      year: 2023,
      title: '#1041: Pre-compute RoPE embeddings in fp32',
    },
    {
      // Named by #1041 as addressed with #1003; its own page could not be read here.
      id: 'gpt-neox-1016',
      chapter: 'implementations',
      href: 'https://github.com/EleutherAI/gpt-neox/issues/1016',
      authors: 'EleutherAI/gpt-neox',
      year: 2023,
      title: '#1016',
    },
    {
      id: 'transformers-29285',
      chapter: 'implementations',
      href: 'https://github.com/huggingface/transformers/pull/29285',
      authors: 'huggingface/transformers',
      year: 2024,
      title: '#29285: RoPE loses precision for Llama / Gemma + Gemma logits.float()',
    },
    {
      // Its page could not be read here.
      id: 'transformers-29496',
      chapter: 'implementations',
      href: 'https://github.com/huggingface/transformers/pull/29496',
      authors: 'huggingface/transformers',
      year: 2024,
      title: '#29496',
    },
    {
      id: 'diffusers-13920',
      chapter: 'implementations',
      href: 'https://github.com/huggingface/diffusers/issues/13920',
      authors: 'huggingface/diffusers',
      year: 2026,
      title:
        '#13920: Ideogram4: Ideogram4MRoPE breaks under torch.autocast: all image positions collapse, producing flat single-color images',
    },
    {
      id: 'diffusers-13922',
      chapter: 'implementations',
      href: 'https://github.com/huggingface/diffusers/pull/13922',
      authors: 'huggingface/diffusers',
      year: 2026,
      title: '#13922: Fix Ideogram4MRoPE collapsing under torch.autocast (compute rotary in float32)',
    },

    // RoPE: R1–R6.
    {
      id: 'roformer',
      chapter: 'rope',
      href: ARXIV('2104.09864'),
      authors: 'Su et al.',
      year: 2021,
      title: 'RoFormer: Enhanced Transformer with Rotary Position Embedding',
    },
    { id: 'men2024', chapter: 'rope', ...MEN },
    {
      id: 'su-base',
      chapter: 'rope',
      href: 'https://kexue.fm/archives/10122',
      authors: '苏剑林 (Su Jianlin)',
      year: 2024,
      title: 'Transformer升级之路：18、RoPE的底数选择原则',
    },
    {
      id: 'su-beta',
      chapter: 'rope',
      href: 'https://kexue.fm/archives/9675',
      authors: '苏剑林 (Su Jianlin)',
      year: 2023,
      title: 'Transformer升级之路：10、RoPE是一种β进制编码',
    },
    {
      id: 'chen2023-pi',
      chapter: 'rope',
      href: ARXIV('2306.15595'),
      authors: 'Chen et al.',
      year: 2023,
      title: 'Extending Context Window of Large Language Models via Positional Interpolation',
    },
    {
      id: 'yarn',
      chapter: 'rope',
      href: ARXIV('2309.00071'),
      authors: 'Peng et al.',
      year: 2023,
      title: 'YaRN: Efficient Context Window Extension of Large Language Models',
    },
    {
      id: 'llama3',
      chapter: 'rope',
      href: ARXIV('2407.21783'),
      authors: 'Llama Team, AI @ Meta',
      year: 2024,
      title: 'The Llama 3 Herd of Models',
    },
    {
      id: 'longrope',
      chapter: 'rope',
      href: ARXIV('2402.13753'),
      authors: 'Ding et al.',
      year: 2024,
      title: 'LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens',
    },
    {
      // The commit tests/fixtures/hf_rope.py copies its functions from (docs/rope.md says why a fork).
      id: 'hf-rope-utils',
      chapter: 'rope',
      href: 'https://github.com/yuchenxie4645/transformers/blob/55e3c83d929946e40a655395a6095404af9f998a/src/transformers/modeling_rope_utils.py',
      authors: 'Hugging Face',
      // The commit's date could not be read here.
      year: null,
      title: 'transformers, src/transformers/modeling_rope_utils.py',
    },
    // The same sinusoids elsewhere: diffusion timesteps, 2-D grids, relative tables, and the issues they replay.
    {
      id: 'ddpm',
      chapter: 'elsewhere',
      authors: 'Ho et al.',
      year: 2020,
      title: 'Denoising Diffusion Probabilistic Models',
      href: ARXIV('2006.11239'),
    },
    {
      id: 'guided-diffusion',
      chapter: 'elsewhere',
      authors: 'OpenAI',
      year: null,
      title: 'guided-diffusion: guided_diffusion/nn.py, timestep_embedding',
      href: 'https://github.com/openai/guided-diffusion/blob/aca3097a89fab9c9962b22224d5f48950eb57e29/guided_diffusion/nn.py',
    },
    {
      id: 'dit',
      chapter: 'elsewhere',
      authors: 'Peebles and Xie',
      year: 2023,
      title: 'Scalable Diffusion Models with Transformers',
      href: ARXIV('2212.09748'),
    },
    {
      id: 'diffusers',
      chapter: 'elsewhere',
      authors: 'Hugging Face',
      year: null,
      title: 'diffusers: src/diffusers/models/embeddings.py, get_timestep_embedding and get_2d_sincos_pos_embed',
      href: 'https://github.com/huggingface/diffusers/blob/0002117e9fa1351a3c0ee988d9c13e683cfb273b/src/diffusers/models/embeddings.py',
    },
    {
      id: 'sd-scripts-1187',
      chapter: 'elsewhere',
      authors: 'kohya-ss/sd-scripts',
      year: null,
      title: 'Issue #1187: downscale_freq_shift for SDXL',
      href: 'https://github.com/kohya-ss/sd-scripts/issues/1187',
    },
    {
      id: 'diffusers-12791',
      chapter: 'elsewhere',
      authors: 'huggingface/diffusers',
      year: null,
      title: 'Issue #12791: downscale_freq_shift',
      href: 'https://github.com/huggingface/diffusers/issues/12791',
    },
    {
      id: 'mae',
      chapter: 'elsewhere',
      authors: 'He et al.',
      year: 2021,
      title: 'Masked Autoencoders Are Scalable Vision Learners',
      href: ARXIV('2111.06377'),
    },
    {
      id: 'mae-code',
      chapter: 'elsewhere',
      authors: 'facebookresearch/mae',
      year: null,
      title: 'util/pos_embed.py, get_2d_sincos_pos_embed',
      href: 'https://github.com/facebookresearch/mae/blob/be47fef7a727943547afb0c670cf1b26034c3c89/util/pos_embed.py',
    },
    {
      id: 'mae-18',
      chapter: 'elsewhere',
      authors: 'facebookresearch/mae',
      year: null,
      title: 'Issue #18: height and width swapped in get_2d_sincos_pos_embed',
      href: 'https://github.com/facebookresearch/mae/issues/18',
    },
    {
      id: 'transformer-xl',
      chapter: 'elsewhere',
      authors: 'Dai et al.',
      year: 2019,
      title: 'Transformer-XL: Attentive Language Models Beyond a Fixed-Length Context',
      href: ARXIV('1901.02860'),
    },
    {
      id: 'espnet',
      chapter: 'elsewhere',
      authors: 'ESPnet',
      year: null,
      title: 'espnet/nets/pytorch_backend/transformer/embedding.py, RelPositionalEncoding and StreamPositionalEncoding',
      href: 'https://github.com/espnet/espnet/blob/029365d81725db38ae9d8fe2f16a3e1df97df1ee/espnet/nets/pytorch_backend/transformer/embedding.py',
    },
  ].map((source) => Object.freeze(source)),
);

/** The sources of `chapter`, in list order. */
export const sourcesOf = (chapter) => SOURCES.filter((source) => source.chapter === chapter);

/** The number a citation of `id` shows: its place (from 1) in its chapter's list; undefined when no such source. */
export function sourceNumber(id) {
  const source = SOURCES.find((entry) => entry.id === id);
  return source && sourcesOf(source.chapter).indexOf(source) + 1;
}
