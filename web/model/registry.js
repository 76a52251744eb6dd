// Owns what the site is made of: its sections in page order, the plots each
// holds, the chapter (chunk of code, chapters.js) each belongs to, the string
// keys it is worded by, and the <posenc-*> tag of each plot that has one.
// Pure data: the plots' code lives in the section modules (sections.js), the
// knobs in params.js. web/build/generate-lists.mjs writes every list of plots
// (the page's skeleton, the elements' types, the Hexo and Hugo helpers, the
// docs) from here; tests/js/model/registry.test.js keeps it equal to SECTIONS.

/**
 * A section of the page, in page order:
 * id: its anchor (the heading's id is h-<id>);
 * chapter: 'first-view' (loaded with the page) or the name of a chapter of chapters.js;
 * heading: 2 or 3; strings: the prefix of its keys in web/i18n (<strings>.title, <strings>.text);
 * plots: { name, tag?, title?, text? } in order (title, text: the keys of the plot's own
 *   heading and explanation where they are not the section's; a uniform section with several
 *   plots shows each plot's title above it);
 * markup: 'fragment' when web/fragments/<id>.html holds its HTML (controls, tables, more text)
 *   instead of the uniform heading, text and plots.
 */
export const PAGE_SECTIONS = Object.freeze(
  [
    { id: 'heatmap', plots: [{ name: 'heatmap', tag: 'posenc-heatmap' }] },
    { id: 'waves', plots: [{ name: 'waves', tag: 'posenc-waves' }] },
    { id: 'ladder', plots: [{ name: 'ladder', tag: 'posenc-ladder' }] },
    { id: 'row', plots: [{ name: 'row', tag: 'posenc-row' }] },
    { id: 'sensitivity', plots: [{ name: 'sensitivity', tag: 'posenc-sensitivity' }] },
    { id: 'rotation', plots: [{ name: 'rotation', tag: 'posenc-rotation' }] },
    { id: 'offset', plots: [{ name: 'offset-dots', tag: 'posenc-offset-dots' }] },
    { id: 'similarity', plots: [{ name: 'similarity', tag: 'posenc-similarity' }] },
    {
      id: 'attention',
      chapter: 'attention',
      plots: [
        { name: 'attention', tag: 'posenc-attention', title: 'attention.matrix' },
        { name: 'attention-rows', tag: 'posenc-attention-rows', title: 'attention-rows.title' },
      ],
    },
    {
      id: 'sine-cosine',
      chapter: 'attention',
      strings: 'sineCosine',
      plots: [
        { name: 'sine-only', tag: 'posenc-sine-only', title: 'sine-only.title' },
        { name: 'sine-fit', tag: 'posenc-sine-fit', title: 'sine-fit.title' },
      ],
    },
    {
      id: 'extrapolation',
      chapter: 'attention',
      markup: 'fragment',
      plots: [{ name: 'extrapolation', tag: 'posenc-extrapolation' }],
    },
    {
      id: 'faq',
      chapter: 'attention',
      markup: 'fragment',
      plots: [{ name: 'token-scale', tag: 'posenc-token-scale', title: 'token-scale.title', text: 'faq.scale' }],
    },
    { id: 'compare', markup: 'fragment', plots: [{ name: 'compare', tag: 'posenc-compare' }] },
    {
      id: 'question',
      markup: 'fragment',
      plots: [
        { name: 'mistake-ratio', text: 'question.one' },
        { name: 'mistake-column', text: 'question.two' },
        { name: 'mistake-order', text: 'question.three' },
      ],
    },
    { id: 'why-base', chapter: 'rope', strings: 'whyBase', markup: 'fragment', plots: [{ name: 'why-base' }] },
    { id: 'rope', chapter: 'rope', markup: 'fragment', plots: [] },
    {
      id: 'rope-relative',
      chapter: 'rope',
      heading: 3,
      strings: 'ropeRelative',
      plots: [{ name: 'rope-relative', tag: 'posenc-rope-relative' }],
    },
    { id: 'rope-decay', chapter: 'rope', heading: 3, strings: 'ropeDecay', plots: [{ name: 'rope-decay' }] },
    { id: 'rope-base', chapter: 'rope', heading: 3, strings: 'ropeBase', plots: [{ name: 'rope-base' }] },
    {
      id: 'rope-lab',
      chapter: 'rope-lab',
      strings: 'ropeLab',
      markup: 'fragment',
      plots: [
        { name: 'rope-scaling', tag: 'posenc-rope-scaling' },
        { name: 'rope-dials', text: 'ropeLab.dialsText' },
      ],
    },
    { id: 'rope-check', chapter: 'rope-lab', strings: 'ropeCheck', markup: 'fragment', plots: [] },
    { id: 'rope-code', chapter: 'rope-lab', strings: 'ropeCode', markup: 'fragment', plots: [] },
    { id: 'check', markup: 'fragment', plots: [] },
    {
      id: 'precision',
      chapter: 'precision',
      markup: 'fragment',
      plots: [{ name: 'precision', tag: 'posenc-precision' }],
    },
  ].map(({ id, chapter = 'first-view', heading = 2, strings = id, plots, markup = 'uniform' }) =>
    Object.freeze({ id, chapter, heading, strings, plots: Object.freeze(plots.map(Object.freeze)), markup }),
  ),
);

/**
 * Every plot, in page order: name (also embed.html's plot= and the section module's
 * name), tag (absent: the page only), section (its id), chapter, title (the key of the
 * heading it is shown under) and text (the key of the text that explains it).
 */
export const PLOTS = Object.freeze(
  PAGE_SECTIONS.flatMap((section) =>
    section.plots.map(({ name, tag, title, text }) =>
      Object.freeze({
        name,
        ...(tag ? { tag } : {}),
        section: section.id,
        chapter: section.chapter,
        title: title ?? `${section.strings}.title`,
        text: text ?? `${section.strings}.text`,
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
