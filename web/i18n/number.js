// Owns the one number formatter of every text: the string tables (en.js,
// zh.js and their plots.* parts) and the plots' own default labels.

/** A number with `digits` significant digits, without trailing noise. */
export function formatNumber(value, digits = 3) {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) return value.toExponential(digits - 1);
  return String(Number(value.toPrecision(digits)));
}

/**
 * A difference or an error: plain digits from 0.001 up (7.6, not 7.6e+0),
 * exponent form only below, where it is what a reader expects (3.2e-16).
 */
export function formatDifference(value, digits = 2) {
  if (value === 0) return '0';
  return Math.abs(value) >= 1e-3 ? formatNumber(value, digits) : value.toExponential(digits - 1);
}

/**
 * A number in a sentence: formatNumber's digits, the whole part grouped from
 * 1,000 up (1,000, 30,527.7; 1.23e+5 stays as formatNumber writes it).
 */
export function formatGrouped(value, digits = 3) {
  const text = formatNumber(value, digits);
  return text.includes('e') ? text : text.replace(/^-?\d+/, (whole) => groupDigits(whole));
}

/**
 * A count with digit grouping: 1,000,000. (Not toLocaleString: its first call
 * loads locale data for ~130 ms.)
 */
export const groupDigits = (value) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
