// The groups of sections whose code a chapter document loads later, when one of
// their sections nears the screen (or once the first view is done): their
// sections, plots and numbers are not part of the first view's code. The
// registry (web/model/registry.js) names each section's group; a document
// loads only the groups of the sections it holds. The elements and the embed
// take every section at once (sections.js).

export const GROUPS = Object.freeze([
  {
    name: 'attention',
    load: () => import('./attention-sections.js').then((module) => module.ATTENTION_SECTIONS),
  },
  {
    name: 'rope',
    load: () => import('./rope-sections.js').then((module) => module.ROPE_SECTIONS),
  },
  {
    name: 'rope-lab',
    load: () => import('./rope-lab-sections.js').then((module) => module.ROPE_LAB_SECTIONS),
  },
  {
    name: 'elsewhere',
    load: () => import('./elsewhere-sections.js').then((module) => module.ELSEWHERE_SECTIONS),
  },
  {
    name: 'precision',
    load: () => import('./precision-sections.js').then((module) => module.PRECISION_SECTIONS),
  },
]);
