// The numbers of every plot that reads the model, by section name:
// compute({ model, state, conv }) -> plain objects and typed arrays (what a
// worker can post back). The first sections' are in sinusoidal-data.js; each later
// chapter brings its own (the page's main thread loads those chapters lazily).
import { SINUSOIDAL_COMPUTE } from './sinusoidal-data.js';
import { ATTENTION_COMPUTE } from './attention-data.js';
import { PRECISION_COMPUTE } from './precision-data.js';
import { ROPE_COMPUTE } from './rope-data.js';
import { ROPE_LAB_COMPUTE } from './rope-lab-data.js';
import { ELSEWHERE_COMPUTE } from './elsewhere-data.js';

export { paper } from './sinusoidal-data.js';

export const COMPUTE = {
  ...SINUSOIDAL_COMPUTE,
  ...ROPE_LAB_COMPUTE,
  ...PRECISION_COMPUTE,
  ...ROPE_COMPUTE,
  ...ATTENTION_COMPUTE,
  ...ELSEWHERE_COMPUTE,
};
