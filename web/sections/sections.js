// Every plot's section: what it depends on, and how its data and translated
// options are built (sinusoidal-sections.js has the first ones and says how); the
// page, the elements and the embed all draw these. The page loads the later
// chapters lazily (chapters.js); the elements and the embed take them all.
import { SINUSOIDAL_SECTIONS } from './sinusoidal-sections.js';
import { ATTENTION_SECTIONS } from './attention-sections.js';
import { PRECISION_SECTIONS } from './precision-sections.js';
import { ROPE_LAB_SECTIONS } from './rope-lab-sections.js';
import { ROPE_SECTIONS } from './rope-sections.js';
import { ELSEWHERE_SECTIONS } from './elsewhere-sections.js';

export { ORDER_ZOOM } from './sinusoidal-sections.js';

export const SECTIONS = [
  ...SINUSOIDAL_SECTIONS,
  ...PRECISION_SECTIONS,
  ...ROPE_SECTIONS,
  ...ROPE_LAB_SECTIONS,
  ...ATTENTION_SECTIONS,
  ...ELSEWHERE_SECTIONS,
];
