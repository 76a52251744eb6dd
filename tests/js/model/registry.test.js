// The registry (web/model/registry.js) against what draws and words the plots:
// the section modules (SECTIONS), the page's chapters (chapters.js), the
// strings (web/i18n), the fragments of the page, and the elements.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { CHAPTERS } from '../../../web/sections/chapters.js';
import { ELEMENTS, PAGE_SECTIONS, PLOTS, TAG_OF_PLOT } from '../../../web/model/registry.js';
import { SECTIONS } from '../../../web/sections/sections.js';

const names = PLOTS.map((plot) => plot.name);
const count = (list, value) => list.filter((item) => item === value).length;

describe('the registry', () => {
  it('has exactly one plot for each section module and one section module for each plot', () => {
    const modules = SECTIONS.map((section) => section.name);
    for (const name of names) expect(count(modules, name), `${name} in SECTIONS`).toBe(1);
    for (const name of modules) expect(count(names, name), `${name} in the registry`).toBe(1);
  });

  it('maps every element tag to a plot of the registry, named <posenc-plot>', () => {
    expect(Object.keys(ELEMENTS).length).toBeGreaterThan(0);
    for (const [tag, plot] of Object.entries(ELEMENTS)) {
      expect(names).toContain(plot);
      expect(tag).toBe(`posenc-${plot}`);
      expect(TAG_OF_PLOT[plot]).toBe(tag);
    }
    expect(Object.keys(TAG_OF_PLOT).length).toBe(Object.keys(ELEMENTS).length);
  });

  it('gives each section a unique id and a chapter the page loads', () => {
    const ids = PAGE_SECTIONS.map((section) => section.id);
    expect(new Set(ids).size).toBe(ids.length);
    const chapters = ['first-view', ...CHAPTERS.map((chapter) => chapter.name)];
    for (const section of PAGE_SECTIONS) expect(chapters, section.id).toContain(section.chapter);
    // Each lazily loaded chapter watches a plot of its own.
    for (const { name, watch } of CHAPTERS) expect(PLOTS.find((plot) => plot.name === watch)?.chapter).toBe(name);
  });

  it('words every plot and uniform section in English and Chinese', () => {
    for (const plot of PLOTS)
      for (const key of [plot.title, plot.text]) {
        expect(Object.hasOwn(en, key), `en ${key}`).toBe(true);
        expect(Object.hasOwn(zh, key), `zh ${key}`).toBe(true);
      }
    for (const section of PAGE_SECTIONS.filter((section) => section.markup === 'uniform'))
      for (const table of [en, zh]) expect(Object.hasOwn(table, `${section.strings}.title`), section.id).toBe(true);
  });

  it('has a fragment file for each hand-written section and no other', () => {
    // notation.html is the start page's table of symbols, not a section of a chapter.
    const files = readdirSync(new URL('../../../web/fragments/', import.meta.url))
      .filter((file) => file !== 'notation.html')
      .sort();
    const fragments = PAGE_SECTIONS.filter((section) => section.markup === 'fragment').map(({ id }) => `${id}.html`);
    expect(files).toEqual(fragments.sort());
  });
});
