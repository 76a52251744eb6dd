// Theme colours as CSS custom properties: var() in svg styles follows a
// light/dark switch by itself.

// Used when the embedding page defines no --posenc-* variables.
const FALLBACK = {
  fg: '#1f2328',
  muted: '#59636e',
  grid: '#d0d7de',
  bg: '#ffffff',
  accent: '#c4320a',
  'series-1': '#1f6feb',
  'series-2': '#c4320a',
  'series-3': '#1a7f37',
  'series-4': '#8250df',
};
const SERIES_COUNT = 4;

/** A CSS colour that follows the theme, for svg attributes and styles. */
export const cssColor = (name) => `var(--posenc-${name}, ${FALLBACK[name]})`;
export const seriesColor = (index) => cssColor(`series-${(index % SERIES_COUNT) + 1}`);
