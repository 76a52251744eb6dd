// One notation across the site (web/fragments/notation.html lists it): the
// clashes the texts had are gone, in English and Chinese. Positions are pos, p
// and p′, the offset k, the pair index i, a dimension j, the frequency ω_i, the
// query and key vectors bold 𝐪 and 𝐤. And every plot says what to look at.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { defaultState } from '../../../web/model/state.js';
import { PLOTS } from '../../../web/model/registry.js';
import { textFacts } from '../../../web/model/text-facts.js';

const facts = textFacts(defaultState());
const text = (table, key) => (typeof table[key] === 'function' ? table[key](facts) : table[key]);
/** The TeX of the inline and display formulas of a rich string. */
const formulas = (value) => [...value.matchAll(/\$\$([\s\S]+?)\$\$|\$([^$]+?)\$/g)].map((m) => m[1] ?? m[2]);
/** The one-letter identifiers a formula uses, commands and their names left out (\mathrm{i} is no i). */
const letters = (tex) => new Set(tex.replace(/\\[a-zA-Z]+(\{[^}]*\})?/g, ' ').match(/\b[a-zA-Z]\b/g) ?? []);

describe.each([
  ['en', en],
  ['zh', zh],
])('the notation in %s', (_, table) => {
  it('"Why 10000?" writes the similarity as a function of an offset, s(k′), not of a dimension j', () => {
    const whyBase = text(table, 'whyBase.text');
    expect(whyBase).not.toMatch(/s\(j\)/);
    expect(whyBase).toContain("s(k')/(d/2)");
  });

  it('R1 writes the query and key vectors bold and rotates them to positions p and p′, by ω_i', () => {
    const relative = text(table, 'ropeRelative.text');
    const tex = formulas(relative).join(' ');
    expect(tex).toContain(String.raw`\mathbf{q}_p = R(p)\,\mathbf{q}`);
    expect(tex).toContain(String.raw`\mathbf{k}_{p'} = R(p')\,\mathbf{k}`);
    // No plain q (the query vector; no scalar is q), no k with a subscript or a transpose (the key
    // vector; the scalar k is an offset), no m for an offset, no θ_i for the frequency.
    const vectors = formulas(relative).map((f) => f.replace(/\\mathbf\{[qk]\}/g, ''));
    expect(vectors.filter((f) => letters(f).has('q') || /(^|[^a-z\\])k\s*(_|\^)/.test(f))).toEqual([]);
    expect(tex).not.toMatch(/\\theta/);
    expect(formulas(relative).filter((f) => letters(f).has('m'))).toEqual([]);
  });

  it('RoPE’s offsets are k and its frequencies ω_i, as in the sinusoidal chapter', () => {
    for (const key of ['ropeDecay.text', 'ropeBase.text', 'ropeLab.text', 'rope.intro']) {
      const tex = formulas(text(table, key));
      expect(
        tex.filter((f) => /\\theta/.test(f)),
        key,
      ).toEqual([]);
      expect(
        tex.filter((f) => letters(f).has('m')),
        key,
      ).toEqual([]);
    }
  });

  it('attention and the similarity matrix write the second position p′, never q (the query vector)', () => {
    for (const key of ['attention.text', 'similarity.text']) {
      const tex = formulas(text(table, key));
      expect(
        tex.filter((f) => letters(f).has('q')),
        key,
      ).toEqual([]);
      expect(
        tex.some((f) => f.includes("p'")),
        key,
      ).toBe(true);
    }
  });

  it('the notation table has a meaning for every symbol row', () => {
    const html = readFileSync(new URL('../../../web/fragments/notation.html', import.meta.url), 'utf8');
    const keys = [...html.matchAll(/data-i18n="([^"]+)"/g)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(12);
    for (const key of keys) expect(typeof table[key], key).toBe('string');
  });

  it('every plot has a line saying what to look at: one short sentence', () => {
    for (const { name } of PLOTS) {
      const notice = table[`${name}.notice`];
      expect(typeof notice, name).toBe('string');
      expect(notice.length, name).toBeLessThan(120);
      expect(notice, name).toMatch(/[.。…]$/);
    }
    expect(typeof table['notes.summary']).toBe('string');
  });
});
