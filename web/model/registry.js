// Owns what the site is made of: its chapters (one document each), their
// sections in reading order, the plots each holds, the group of code
// (web/sections/groups.js) each belongs to, the string keys it is worded by,
// and the <posenc-*> tag of each plot that has one. Pure data: the plots' code
// lives in the section modules (sections.js), the knobs in params.js.
// web/build/generate-lists.mjs generates the chapter documents and writes every
// list of plots (the elements' types, the Hexo and Hugo helpers, the docs) from here;
// tests/js/model/registry.test.js keeps it equal to SECTIONS.

import { SECTION_KNOBS } from './section-knobs.js';

/**
 * The explainer's chapters, each a document of its own, in reading order: name (what a
 * section's `chapter` names), file (the document web/build/generate-lists.mjs generates from
 * web/build/templates/chapter.html, in the build only: web/build/vite-documents.js), title (the key of its heading; `<title>` is
 * <title>.page), strip (the knobs its sections share, shown once in a strip that stays in view
 * while those sections are read; every other knob a section follows sits beside its plots).
 * The start page (START_FILE) comes before them.
 */
export const CHAPTERS = Object.freeze(
  [
    { name: 'sinusoidal', file: 'sinusoidal.html', title: 'chapter.sinusoidal', strip: ['dModel', 'length', 'base'] },
    {
      name: 'implementations',
      file: 'implementations.html',
      title: 'chapter.implementations',
      strip: ['dModel', 'length', 'base'],
    },
    // The RoPE lab has a form of its own (a model's config): the strip holds what §3.2–3.4 share.
    { name: 'rope', file: 'rope.html', title: 'chapter.rope', strip: ['base', 'ropeDim'] },
    // After RoPE: the numbers and anchors of chapters 1–3 stay as they were; its sections take up
    // chapter 1's table (rows at any positions) and its dot products (in 2-D).
    { name: 'elsewhere', file: 'elsewhere.html', title: 'chapter.elsewhere', strip: ['dModel'] },
  ].map(({ strip, ...chapter }) => Object.freeze({ ...chapter, strip: Object.freeze(strip) })),
);

/**
 * Whether chapter `name` computes on the full module (with RoPE) from its first view: none of its
 * sections is in the first view's code (web/model/sinusoidal-data.js), so its compute worker loads
 * that module alone rather than the smaller one first (web/build/vite-early-worker.js).
 */
export const fullModuleFirst = (name) =>
  !PAGE_SECTIONS.some((section) => section.chapter === name && section.group === 'first-view');

/** The start page: what the site is, the Q&A it answers, every chapter's contents. */
export const START_FILE = 'index.html';

/**
 * A section, in reading order (chapter by chapter):
 * id: its anchor (the heading's id is h-<id>); chapter: the name of its chapter (CHAPTERS);
 * group: 'first-view' (its code is loaded with the document) or the name of a lazily loaded
 *   group of web/sections/groups.js;
 * strings: the prefix of its keys in web/i18n (<strings>.title, <strings>.text); title: the key
 *   of its heading where it is not <strings>.title;
 * plots: { name, tag?, title?, text? } in order (title, text: the keys of the plot's own
 *   heading and explanation where they are not the section's; a uniform section with several
 *   plots shows each plot's title above it);
 * markup: 'fragment' when web/fragments/<id>.html holds its HTML (controls, tables, more text)
 *   instead of the uniform heading, text and plots;
 * reads: the state keys (or array slots, web/model/arrays.js) its parts other than plots
 *   follow (the plots' own come from their section modules: SECTION_KNOBS).
 */
export const PAGE_SECTIONS = Object.freeze(
  [
    { id: 'heatmap', chapter: 'sinusoidal', plots: [{ name: 'heatmap', tag: 'posenc-heatmap' }] },
    { id: 'waves', chapter: 'sinusoidal', plots: [{ name: 'waves', tag: 'posenc-waves' }] },
    { id: 'ladder', chapter: 'sinusoidal', plots: [{ name: 'ladder', tag: 'posenc-ladder' }] },
    { id: 'row', chapter: 'sinusoidal', plots: [{ name: 'row', tag: 'posenc-row' }] },
    { id: 'sensitivity', chapter: 'sinusoidal', plots: [{ name: 'sensitivity', tag: 'posenc-sensitivity' }] },
    { id: 'offset', chapter: 'sinusoidal', plots: [{ name: 'offset-dots', tag: 'posenc-offset-dots' }] },
    { id: 'similarity', chapter: 'sinusoidal', plots: [{ name: 'similarity', tag: 'posenc-similarity' }] },
    { id: 'rotation', chapter: 'sinusoidal', plots: [{ name: 'rotation', tag: 'posenc-rotation' }] },
    {
      id: 'sine-cosine',
      chapter: 'sinusoidal',
      group: 'attention',
      strings: 'sineCosine',
      plots: [
        { name: 'sine-only', tag: 'posenc-sine-only', title: 'sine-only.title' },
        { name: 'sine-fit', tag: 'posenc-sine-fit', title: 'sine-fit.title' },
      ],
    },
    {
      id: 'why-base',
      chapter: 'sinusoidal',
      group: 'rope',
      strings: 'whyBase',
      markup: 'fragment',
      plots: [{ name: 'why-base' }],
    },
    {
      id: 'attention',
      chapter: 'sinusoidal',
      group: 'attention',
      plots: [
        { name: 'attention', tag: 'posenc-attention', title: 'attention.matrix' },
        { name: 'attention-rows', tag: 'posenc-attention-rows', title: 'attention-rows.title' },
      ],
    },
    {
      id: 'extrapolation',
      chapter: 'sinusoidal',
      group: 'attention',
      markup: 'fragment',
      plots: [{ name: 'extrapolation', tag: 'posenc-extrapolation' }],
    },
    {
      id: 'faq',
      chapter: 'sinusoidal',
      group: 'attention',
      markup: 'fragment',
      plots: [{ name: 'token-scale', tag: 'posenc-token-scale', title: 'token-scale.title', text: 'faq.scale' }],
    },
    {
      id: 'compare',
      chapter: 'implementations',
      markup: 'fragment',
      plots: [{ name: 'compare', tag: 'posenc-compare' }],
    },
    {
      id: 'question',
      chapter: 'implementations',
      markup: 'fragment',
      plots: [
        { name: 'mistake-ratio', text: 'question.one' },
        { name: 'mistake-column', text: 'question.two' },
        { name: 'mistake-order', text: 'question.three' },
      ],
    },
    // The exports of the current table and the code that reproduces it.
    { id: 'check', chapter: 'implementations', markup: 'fragment', plots: [], reads: ['table'] },
    {
      id: 'precision',
      chapter: 'implementations',
      group: 'precision',
      markup: 'fragment',
      plots: [{ name: 'precision', tag: 'posenc-precision' }],
    },
    { id: 'rope', chapter: 'rope', group: 'rope', markup: 'fragment', title: 'rope.chapter', plots: [] },
    {
      id: 'rope-relative',
      chapter: 'rope',
      group: 'rope',
      strings: 'ropeRelative',
      plots: [{ name: 'rope-relative', tag: 'posenc-rope-relative' }],
    },
    { id: 'rope-decay', chapter: 'rope', group: 'rope', strings: 'ropeDecay', plots: [{ name: 'rope-decay' }] },
    { id: 'rope-base', chapter: 'rope', group: 'rope', strings: 'ropeBase', plots: [{ name: 'rope-base' }] },
    {
      id: 'rope-lab',
      chapter: 'rope',
      group: 'rope-lab',
      strings: 'ropeLab',
      markup: 'fragment',
      plots: [
        { name: 'rope-scaling', tag: 'posenc-rope-scaling' },
        { name: 'rope-dials', text: 'ropeLab.dialsText' },
      ],
    },
    // The check of a config and of a cache, and the code, follow the lab's settings.
    {
      id: 'rope-check',
      chapter: 'rope',
      group: 'rope-lab',
      strings: 'ropeCheck',
      markup: 'fragment',
      plots: [],
      reads: ['ropePreset'],
    },
    {
      id: 'rope-code',
      chapter: 'rope',
      group: 'rope-lab',
      strings: 'ropeCode',
      markup: 'fragment',
      plots: [],
      reads: ['ropePreset'],
    },
    {
      id: 'timestep',
      chapter: 'elsewhere',
      group: 'elsewhere',
      markup: 'fragment',
      plots: [
        { name: 'timestep-embedding', tag: 'posenc-timestep-embedding', title: 'timestep-embedding.title' },
        { name: 'timestep-similarity', tag: 'posenc-timestep-similarity', title: 'timestep-similarity.title' },
      ],
    },
    {
      id: 'grid',
      chapter: 'elsewhere',
      group: 'elsewhere',
      markup: 'fragment',
      plots: [
        { name: 'grid-column', tag: 'posenc-grid-column', title: 'grid-column.title' },
        { name: 'grid-dots', tag: 'posenc-grid-dots', title: 'grid-dots.title' },
        { name: 'grid-swapped', tag: 'posenc-grid-swapped', title: 'grid-swapped.title' },
      ],
    },
    {
      id: 'relative',
      chapter: 'elsewhere',
      group: 'elsewhere',
      markup: 'fragment',
      plots: [{ name: 'relative-table', tag: 'posenc-relative-table' }],
    },
  ].map(({ id, chapter, group = 'first-view', strings = id, title, plots, markup = 'uniform', reads = [] }) =>
    Object.freeze({
      id,
      chapter,
      group,
      strings,
      title: title ?? `${strings}.title`,
      plots: Object.freeze(plots.map(Object.freeze)),
      markup,
      reads: Object.freeze(reads),
      // The knobs it follows, derived from its plots' section modules and `reads` (generated).
      knobs: Object.freeze(SECTION_KNOBS[id] ?? []),
    }),
  ),
);

/**
 * The Q&A the site answers (a well-known question on a Q&A site and its two answers), one line
 * per question or claim (text: its string key), each linked to the section that answers it (anchor:
 * the id of the heading inside it that does, where not the section's own); the question's three
 * mistakes first. The start page lists them.
 */
export const QA_MAP = Object.freeze(
  [
    { text: 'qa.ratio', section: 'question' },
    { text: 'qa.column', section: 'question' },
    { text: 'qa.order', section: 'question' },
    { text: 'qa.how', section: 'offset' },
    { text: 'qa.correct', section: 'check' },
    { text: 'qa.padding', section: 'compare' },
    { text: 'qa.extrapolate', section: 'extrapolation' },
    { text: 'qa.onlyPos', section: 'row' },
    { text: 'qa.zero', section: 'heatmap' },
    { text: 'qa.exponent', section: 'ladder' },
    { text: 'qa.sensitive', section: 'sensitivity' },
    { text: 'qa.frequencies', section: 'waves' },
    { text: 'qa.similarity', section: 'similarity' },
    { text: 'qa.sinCos', section: 'sine-cosine' },
    { text: 'qa.hyper', section: 'why-base', anchor: 'h-why-base-pos-width' },
  ].map(Object.freeze),
);

/**
 * Every plot, in page order: name (also embed.html's plot= and the section module's
 * name), tag (absent: the page only), section (its id), chapter, title (the key of the
 * heading it is shown under), text (the key of the text that explains it) and notice (the key
 * of the line above it on the page that says what to notice in it).
 */
export const PLOTS = Object.freeze(
  PAGE_SECTIONS.flatMap((section) =>
    section.plots.map(({ name, tag, title, text }) =>
      Object.freeze({
        name,
        ...(tag ? { tag } : {}),
        section: section.id,
        chapter: section.chapter,
        group: section.group,
        title: title ?? `${section.strings}.title`,
        text: text ?? `${section.strings}.text`,
        notice: `${name}.notice`,
      }),
    ),
  ),
);

/** Tag -> plot name, for the plots that have an element, in page order. */
export const ELEMENTS = Object.freeze(
  Object.fromEntries(PLOTS.filter((plot) => plot.tag).map((plot) => [plot.tag, plot.name])),
);

/** Plot name -> tag. */
export const TAG_OF_PLOT = Object.freeze(
  Object.fromEntries(Object.entries(ELEMENTS).map(([tag, plot]) => [plot, tag])),
);

/** Section id -> its number, one scheme for the site: chapter.section ("1.1", "2.3"), in reading order. */
export const SECTION_NUMBERS = Object.freeze(
  Object.fromEntries(
    CHAPTERS.flatMap((chapter, c) =>
      PAGE_SECTIONS.filter((section) => section.chapter === chapter.name).map((section, s) => [
        section.id,
        `${c + 1}.${s + 1}`,
      ]),
    ),
  ),
);

/** The chapter named `name` (undefined if none). */
export const chapterNamed = (name) => CHAPTERS.find((chapter) => chapter.name === name);

/** The sections of chapter `name`, in order. */
export const sectionsOf = (name) => PAGE_SECTIONS.filter((section) => section.chapter === name);

/** Section id -> the file of the document that holds it. */
export const FILE_OF_SECTION = Object.freeze(
  Object.fromEntries(PAGE_SECTIONS.map((section) => [section.id, chapterNamed(section.chapter).file])),
);

/** The link to section `id` from any document of the site: its document and its heading. */
export const sectionHref = (id, anchor = `h-${id}`) => `${FILE_OF_SECTION[id]}#${anchor}`;
