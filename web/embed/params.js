// embed.html's URL parameters, from the parameter table (model/params.js):
// the explainer page's own names, the JS option names for the knobs the page
// has no control for, theme and height (plus plot and lang, read by main.js).
// Each maps to an element attribute.
export { EMBED_PARAMS as PARAMS, PARAM_OF_ATTRIBUTE as PARAM_OF, PAGE_PARAMS } from '../model/params.js';
