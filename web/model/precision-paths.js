// The dtype paths the precision section offers: every step (position,
// frequency, angle) in one format. The precision knob's choices (params.js)
// and the section's numbers (precision-data.js) both read this list, so the
// parameter table needs none of the section's computing code.
export const PRECISION_PATHS = Object.freeze(['float16', 'bfloat16', 'float32']);
