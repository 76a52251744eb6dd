// The numbers of every plot that reads the model, by section name:
// compute({ model, state, conv }) -> plain objects and typed arrays (what a
// worker can post back). The first sections' are in base-data.js; each later
// chapter brings its own (the page's main thread loads those chapters lazily).
import { BASE_COMPUTE } from './base-data.js';
import { MORE_COMPUTE } from './more-data.js';
import { PRECISION_COMPUTE } from './precision-data.js';
import { ROPE_COMPUTE } from './rope-data.js';
import { ROPE_LAB_COMPUTE } from './rope-lab-data.js';

export { paper } from './base-data.js';

export const COMPUTE = {
  ...BASE_COMPUTE,
  ...ROPE_LAB_COMPUTE,
  ...PRECISION_COMPUTE,
  ...ROPE_COMPUTE,
  ...MORE_COMPUTE,
};
