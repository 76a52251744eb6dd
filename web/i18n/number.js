// Owns the one number formatter of every text: the string tables (en.js,
// zh.js and their plots.* parts) and the plots' own default labels.

/** A number with `digits` significant digits, without trailing noise. */
export function formatNumber(value, digits = 3) {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) return value.toExponential(digits - 1);
  return String(Number(value.toPrecision(digits)));
}

/**
 * A count with digit grouping: 1,000,000. (Not toLocaleString: its first call
 * loads locale data for ~130 ms.)
 */
export const groupDigits = (value) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
