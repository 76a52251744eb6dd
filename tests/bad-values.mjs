// The bad values of every element attribute and embed.html parameter: the
// full matrix runs in Node against the parameter table (tests/js/model/params.test.js),
// a sample of each list in the browser (tests/e2e/bad-values.test.mjs).

export const MARKUP = '<img src=x onerror="window.__pwned=1">';
// Bad for every attribute of its kind. Surrounding spaces are bad too: values
// are taken as written (each attribute's list adds a padded valid value).
const COMMON_BAD = [
  '',
  '   ',
  'undefined',
  'null',
  'NaN',
  'Infinity',
  '-Infinity',
  'abc',
  'nope',
  '1e12',
  '99999999999',
  '0x10',
  MARKUP,
];
const INTEGER_BAD = [...COMMON_BAD, '-3', '2.5', '１２'];
const NUMBER_BAD = [...COMMON_BAD, '1e999', '1,5', '2.5.1'];
const ENUM_BAD = [...COMMON_BAD, '-3', '2.5', 'constructor', '__proto__', 'toString'];

/** Per attribute (on an element of d-model 64, length 96): its kind's bad values, its bounds, padded valid values. */
export const ATTRIBUTE_BAD = {
  'd-model': [...INTEGER_BAD, '1', '1025', ' 48 '],
  length: [...INTEGER_BAD, '7', '2049', '80 '],
  base: [...NUMBER_BAD, '-3', '0', '1', '1.99', '100000001', ' 100'],
  preset: [...ENUM_BAD, 'Fairseq', ' fairseq'],
  layout: [...ENUM_BAD, 'Concat', 'concat '],
  exponent: [...ENUM_BAD, 'Column', '2i/d', ' column'],
  order: [...ENUM_BAD, 'cos_sin', 'cos-sin '],
  angle: [...ENUM_BAD, 'Ratio-Power', ' ratio-power'],
  start: [...NUMBER_BAD, '1000001', '-1e7', ' -3.5'],
  'padding-row': [...INTEGER_BAD, '-1', 'None', ' none', '96', ' 2 '],
  'odd-column': [...ENUM_BAD, 'Zero', ' zero', 'sin'],
  scale: [...NUMBER_BAD, '0', '-0', '1e-7', '-1e-300', '1000001', ' -2.5'],
  position: [...INTEGER_BAD, '192', ' 37'],
  dimension: [...INTEGER_BAD, '64', '41 '],
  offset: [...INTEGER_BAD, '96', ' 30 '],
  compare: [...ENUM_BAD, 'Tensor2Tensor', ' tensor2tensor'],
  precision: [...ENUM_BAD, 'Float16', ' float16', 'fp16', 'half', 'float64'],
  'rope-dim': [...INTEGER_BAD, '2', '258', '63', '65', ' 64'],
  'rope-layout': [...ENUM_BAD, 'Half', 'neox', 'interleaved '],
  context: [...INTEGER_BAD, '15', '16385', '4096 '],
  theme: [...ENUM_BAD, 'Dark', ' dark', 'blue'],
  height: [...INTEGER_BAD, '99', '4001', ' 300 '],
  // The RoPE lab (rope-lab-data.js).
  'rope-preset': [...ENUM_BAD, 'Llama3.1-8b', ' llama2-7b', 'llama3'],
  'rope-type': [...ENUM_BAD, 'YaRN', ' yarn', 'su', 'ntk'],
  'head-dim': [...INTEGER_BAD, '2', '514', '1000', ' 64'],
  'rope-theta': [...NUMBER_BAD, '-3', '0', '1', '1.99', '1e10', ' 100'],
  factor: [...NUMBER_BAD, '-3', '0', '0.5', '1001', ' 4'],
  'original-max-position-embeddings': [...INTEGER_BAD, '0', '15', '1048577', ' 4096'],
  'seq-len': [...INTEGER_BAD, '0', '16777217', '8192 '],
  'beta-fast': [...NUMBER_BAD, '-3', '0', '0.001', '1001', ' 32'],
  'beta-slow': [...NUMBER_BAD, '-3', '0', '0.001', '1001', '1 '],
  mscale: [...NUMBER_BAD, '-3', '-0.5', '101', ' 1'],
  'mscale-all-dim': [...NUMBER_BAD, '-3', '-0.5', '101', ' 1'],
  'attention-factor': [...NUMBER_BAD, '-3', '0', '101', 'Auto', ' auto'],
  'low-freq-factor': [...NUMBER_BAD, '-3', '0', '1001', ' 1'],
  'high-freq-factor': [...NUMBER_BAD, '-3', '0', '1001', ' 4'],
  // Chapter 4 (elsewhere-data.js): a grid of 6 × 10 patches by default.
  'ts-preset': [...ENUM_BAD, 'Diffusers', ' diffusers', 'ddpm'],
  'flip-sin-to-cos': [...ENUM_BAD, 'True', ' true', '1'],
  'freq-shift': [...ENUM_BAD, '2', '0.5', ' 1'],
  'max-period': [...NUMBER_BAD, '-3', '0', '1', '1.99', '100000001', ' 100'],
  'ts-range': [...ENUM_BAD, '0..1', '1000 ', '100'],
  'grid-height': [...INTEGER_BAD, '0', '33', ' 6'],
  'grid-width': [...INTEGER_BAD, '0', '33', '10 '],
  'axis-order': [...ENUM_BAD, 'W-H', ' w-h', 'hw'],
  'grid-column': [...INTEGER_BAD, '64', ' 2'],
  'grid-patch': [...INTEGER_BAD, '60', '23 '],
  'rel-length': [...INTEGER_BAD, '1', '129', ' 32'],
  'chunk-start': [...INTEGER_BAD, '1025', ' 64'],
};

export const EMBED_BAD = ['NaN', 'Infinity', '-1', '2.5', 'abc', '1e999', '99999999', 'nope', ' ', MARKUP];

// Bad for every URL parameter of the explainer page (it falls back to the default).
export const PAGE_BAD = [
  '',
  'NaN',
  'Infinity',
  '-1',
  '2.5',
  'abc',
  '1e999',
  '99999999',
  'nope',
  ' 64',
  '<script>window.__pwned=1</script>',
];
