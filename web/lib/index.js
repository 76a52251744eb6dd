export { load, simdSupported } from './loader.js';
export { PRESETS, PRESET_NAMES, LAYOUTS, EXPONENTS, ORDERS, ANGLES, DTYPES } from './conventions.js';
