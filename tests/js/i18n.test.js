import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';

// The diagnosis codes identify() may return, as the public types list them.
const types = readFileSync(new URL('../../web/lib/index.d.ts', import.meta.url), 'utf8');
const CODES = [...types.match(/type DiagnosisCode =([^;]*);/)[1].matchAll(/'([\w-]+)'/g)].map((m) => m[1]);

describe('page strings', () => {
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
