// The page's later chapters, loaded when they near the screen (or once the
// first view is done): their sections, plots and numbers are not part of the
// first view's code. Each names a plot of its own (data-plot) the page
// watches to load it early enough. The elements and the embed take every
// section at once (sections.js).

export const CHAPTERS = Object.freeze([
  {
    name: 'attention',
    watch: 'attention',
    load: () => import('./attention-sections.js').then((module) => module.ATTENTION_SECTIONS),
  },
  {
    name: 'rope',
    watch: 'rope-relative',
    load: () => import('./rope-sections.js').then((module) => module.ROPE_SECTIONS),
  },
  {
    name: 'rope-lab',
    watch: 'rope-scaling',
    load: () => import('./rope-lab-sections.js').then((module) => module.ROPE_LAB_SECTIONS),
  },
  {
    name: 'precision',
    watch: 'precision',
    load: () => import('./precision-sections.js').then((module) => module.PRECISION_SECTIONS),
  },
]);
