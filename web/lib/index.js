export { load, simdSupported } from './loader.js';
export {
  PRESETS,
  PRESET_NAMES,
  LAYOUTS,
  EXPONENTS,
  ORDERS,
  ANGLES,
  ODD_COLUMNS,
  DTYPES,
  PRECISION_DTYPES,
} from './conventions.js';
export { identify } from './identify.js';
export { AXIS_ORDERS, GRID3D_PRESET_NAMES, GRID_PRESET_NAMES, TIMESTEP_PRESET_NAMES } from './elsewhere-options.js';
export { toNpy, toCsv, toJson, parseTable, codeSnippet } from './export.js';
export { gridSnippet, timestepSnippet } from './elsewhere-snippet.js';
