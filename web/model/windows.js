// The position windows the plots show around the selected position: shared
// by the model (data.js, in the worker) and the numbers of the first sections
// (sinusoidal-data.js), which the page's main thread loads without the model.

/** Offsets k the s(k) plots show on each side of 0. */
export const offsetWindow = (state) => Math.min(state.length - 1, 512);
/** Positions the waves plot shows around the selected one. */
export const waveWindow = (state) => Math.min(state.length - 1, 64);
