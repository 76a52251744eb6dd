// Owns the string tables of the plots, the elements and embed.html: English
// bundled, Chinese loaded on first use (a separate chunk, plots.zh.js).
import en from './plots.en.js';
import { stringTables } from './translate.js';

export const plotStrings = stringTables(en, { zh: () => import('./plots.zh.js') });
