// Tables in and out of the library, one module each: .npy and CSV / JSON
// writers, the parser of what people paste or upload, and code that rebuilds a
// table in Python. (This module only gathers them.)
export { toNpy, MAX_NPY_VALUES } from './npy.js';
export { toCsv, toJson } from './text-writers.js';
export { parseTable } from './parse-table.js';
export { MAX_TEXT_CHARS } from './parse-text.js';
export { codeSnippet } from './code-snippet.js';
