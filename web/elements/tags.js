// The <posenc-*> tags and the page section (and plot module) each one shows.
// Kept apart from index.js so that the page can read the list without
// defining the elements.
export const ELEMENTS = Object.freeze({
  'posenc-heatmap': 'heatmap',
  'posenc-waves': 'waves',
  'posenc-ladder': 'ladder',
  'posenc-row': 'row',
  'posenc-sensitivity': 'sensitivity',
  'posenc-offset-dots': 'offset-dots',
  'posenc-similarity': 'similarity',
  'posenc-rotation': 'rotation',
  'posenc-compare': 'compare',
});

/** Plot (section) name -> tag. */
export const TAG_OF_PLOT = Object.freeze(
  Object.fromEntries(Object.entries(ELEMENTS).map(([tag, plot]) => [plot, tag])),
);
