// Owns the list of <posenc-*> tags and the section (and plot module) each one
// shows: the elements define them, embed.html and the page's embed snippets
// look plots up here without defining the elements.
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
  'posenc-precision': 'precision',
  'posenc-rope-relative': 'rope-relative',
  'posenc-rope-scaling': 'rope-scaling',
  'posenc-attention': 'attention',
  'posenc-attention-rows': 'attention-rows',
  'posenc-sine-only': 'sine-only',
  'posenc-sine-fit': 'sine-fit',
  'posenc-extrapolation': 'extrapolation',
  'posenc-token-scale': 'token-scale',
});

/** Plot (section) name -> tag. */
export const TAG_OF_PLOT = Object.freeze(
  Object.fromEntries(Object.entries(ELEMENTS).map(([tag, plot]) => [plot, tag])),
);
