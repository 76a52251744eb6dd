import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import { formatDifference, formatGrouped, formatNumber } from '../../../web/i18n/number.js';
import plotsEn from '../../../web/i18n/plots.en.js';
import plotsZh, {
  formatDifference as formatDifferenceZh,
  formatGrouped as formatGroupedZh,
  formatNumber as formatNumberZh,
} from '../../../web/i18n/plots.zh.js';
import zh from '../../../web/i18n/zh.js';

// The diagnosis codes identify() may return, as the public types list them.
const types = readFileSync(new URL('../../../web/lib/index.d.ts', import.meta.url), 'utf8');
const CODES = [...types.match(/type DiagnosisCode =([^;]*);/)[1].matchAll(/'([\w-]+)'/g)].map((m) => m[1]);

describe('page strings', () => {
  it('the English strings hold no Chinese (a term a reader of the English page cannot read)', () => {
    const dir = new URL('../../../web/i18n/', import.meta.url);
    const files = readdirSync(dir).filter((file) => file === 'en.js' || file.endsWith('.en.js'));
    expect(files.length).toBeGreaterThan(5);
    const han = /\p{Script=Han}+/gu;
    const found = files.flatMap((file) =>
      (readFileSync(new URL(file, dir), 'utf8').match(han) ?? []).map((w) => `${file}: ${w}`),
    );
    expect(found).toEqual([]);
  });

  it('both languages have the same keys, of the same kind', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) expect(typeof zh[key], key).toBe(typeof en[key]);
  });

  it('every diagnosis code has its sentence in both languages', () => {
    expect(CODES).toContain('odd-column-zero');
    expect(CODES.length).toBeGreaterThan(15);
    for (const code of CODES) {
      expect(typeof en[`check.dx.${code}`], code).toBe('function');
      expect(typeof zh[`check.dx.${code}`], code).toBe('function');
    }
  });
});

describe('plot strings (what the elements bundle holds)', () => {
  it('both languages have the same keys, of the same kind, and the page tables include them', () => {
    expect(Object.keys(plotsZh).sort()).toEqual(Object.keys(plotsEn).sort());
    for (const key of Object.keys(plotsEn)) {
      expect(typeof plotsZh[key], key).toBe(typeof plotsEn[key]);
      expect(en[key], key).toBe(plotsEn[key]);
      expect(zh[key], key).toBe(plotsZh[key]);
    }
  });

  it('hold none of the page prose', () => {
    for (const key of Object.keys(plotsEn))
      expect(key).not.toMatch(/^(intro|page|controls|check|export)\.|\.(text|title)$/);
  });

  it("the Chinese table's copy of the number formatter agrees with number.js", () => {
    const values = [
      0,
      1,
      -1,
      0.5,
      1 / 3,
      2 * Math.PI,
      1e-3,
      9.99e-4,
      1e-7,
      12345.678,
      99999.5,
      1e5,
      -2.5e8,
      NaN,
      Infinity,
    ];
    for (const value of values)
      for (const digits of [2, 3, 4]) {
        expect(formatNumberZh(value, digits), `${value}, ${digits}`).toBe(formatNumber(value, digits));
        expect(formatGroupedZh(value, digits), `${value}, ${digits}`).toBe(formatGrouped(value, digits));
      }
    // Independently: three significant digits, exponent form outside [1e-3, 1e5).
    expect(formatNumber(2 * Math.PI)).toBe('6.28');
    expect(formatNumber(123456)).toBe('1.23e+5');
    expect(formatNumber(0.000123)).toBe('1.23e-4');
    expect(formatNumber(0.5)).toBe('0.5');
    // Grouped from 1,000 up, the decimals kept; the exponent form as formatNumber writes it.
    expect(formatGrouped(1000, 6)).toBe('1,000');
    expect(formatGrouped(30527.7, 6)).toBe('30,527.7');
    expect(formatGrouped(-12345.678, 6)).toBe('-12,345.7');
    expect(formatGrouped(999.5, 3)).toBe('1,000');
    expect(formatGrouped(123456, 3)).toBe('1.23e+5');
    expect(formatGrouped(0.5)).toBe('0.5');
  });
});

describe('numbers for people', () => {
  it('differences and errors: plain digits from 0.001 up, exponent form only below (no 7.6e+0)', () => {
    expect(formatDifference(7.6)).toBe('7.6');
    expect(formatDifference(12.3)).toBe('12');
    expect(formatDifference(0.0042, 3)).toBe('0.0042');
    expect(formatDifference(3.21e-16)).toBe('3.2e-16');
    expect(formatDifference(0)).toBe('0');
    for (const value of [0, 1e-17, 4.4e-16, 9.99e-4, 1e-3, 0.37, 7.6, 12.3, 999, 54321])
      for (const digits of [2, 3]) {
        expect(formatDifference(value, digits)).not.toMatch(/e\+/);
        expect(formatDifferenceZh(value, digits), `${value}, ${digits}`).toBe(formatDifference(value, digits));
      }
  });

  it('an angle is said to be past whole turns only when it made one', () => {
    const at = (angle) => ({ pair: 3, frequency: 0.5, offset: 7, angle });
    expect(plotsEn['rotation.angle'](at(5.2))).not.toContain('whole turn');
    expect(plotsEn['rotation.angle'](at(5.2))).toContain(`${formatNumber((5.2 / (2 * Math.PI)) * 360)}°`);
    expect(plotsZh['rotation.angle'](at(5.2))).not.toContain('整圈');
    const three = 3 * 2 * Math.PI + 0.5;
    expect(plotsEn['rotation.angle'](at(three))).toContain(
      `3 whole turns and ${formatNumber((0.5 / (2 * Math.PI)) * 360)}°`,
    );
    expect(plotsEn['rotation.angle'](at(2 * Math.PI + 0.5))).toContain('1 whole turn and');
    expect(plotsZh['rotation.angle'](at(three))).toContain('3 整圈又');
  });
});
