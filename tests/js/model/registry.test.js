// The registry (web/model/registry.js) against what draws and words the plots:
// the section modules (SECTIONS), the lazily loaded groups (groups.js), the
// chapters and their numbering, the strings (web/i18n) and their cross
// references, the fragments of the page, and the elements.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { GROUPS } from '../../../web/sections/groups.js';
import {
  CHAPTERS,
  ELEMENTS,
  FILE_OF_SECTION,
  PAGE_SECTIONS,
  PLOTS,
  QA_MAP,
  SECTION_NUMBERS,
  TAG_OF_PLOT,
} from '../../../web/model/registry.js';
import { sectionKnobs } from '../../../web/build/generate-lists.mjs';
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

  it('gives each section a unique id, a chapter and a group of code a document loads', () => {
    const ids = PAGE_SECTIONS.map((section) => section.id);
    expect(new Set(ids).size).toBe(ids.length);
    const groups = ['first-view', ...GROUPS.map((group) => group.name)];
    for (const section of PAGE_SECTIONS) {
      expect(groups, section.id).toContain(section.group);
      expect(CHAPTERS.map((chapter) => chapter.name)).toContain(section.chapter);
    }
    // Each group holds a section.
    for (const { name } of GROUPS)
      expect(
        PAGE_SECTIONS.some((section) => section.group === name),
        name,
      ).toBe(true);
  });

  it('keeps each chapter in one run of sections, in reading order, each in its own document', () => {
    const order = PAGE_SECTIONS.map((section) => section.chapter).filter((name, i, all) => name !== all[i - 1]);
    expect(order).toEqual(CHAPTERS.map((chapter) => chapter.name));
    const files = CHAPTERS.map((chapter) => chapter.file);
    expect(new Set(files).size).toBe(files.length);
    expect(files).not.toContain('index.html');
    for (const file of files) expect(file).toMatch(/^[a-z][\w-]*\.html$/);
    for (const section of PAGE_SECTIONS)
      expect(FILE_OF_SECTION[section.id]).toBe(CHAPTERS.find((chapter) => chapter.name === section.chapter).file);
  });

  it('numbers the sections with one scheme: chapter.section, in reading order', () => {
    CHAPTERS.forEach((chapter, c) => {
      const numbers = PAGE_SECTIONS.filter((section) => section.chapter === chapter.name).map(
        (section) => SECTION_NUMBERS[section.id],
      );
      expect(numbers).toEqual(numbers.map((_, s) => `${c + 1}.${s + 1}`));
    });
    expect(Object.keys(SECTION_NUMBERS)).toEqual(PAGE_SECTIONS.map((section) => section.id));
  });

  it('leaves the numbers to the registry: no heading string carries one of its own', () => {
    for (const table of [en, zh])
      for (const key of [...PAGE_SECTIONS.map((section) => section.title), ...CHAPTERS.map((c) => c.title)])
        expect(table[key], key).not.toMatch(/^\s*(R?\d+\.|§)/);
  });

  it('words each chapter (heading, document title, description) in English and Chinese', () => {
    for (const table of [en, zh])
      for (const { title } of CHAPTERS)
        for (const key of [title, `${title}.page`, `${title}.description`])
          expect(typeof table[key], key).toBe('string');
  });

  it('resolves every cross reference {ref:<id>} of the strings and the fragments to a section', () => {
    const dir = new URL('../../../web/i18n/', import.meta.url);
    const fragments = new URL('../../../web/fragments/', import.meta.url);
    const texts = [
      ...readdirSync(dir).map((file) => readFileSync(new URL(file, dir), 'utf8')),
      ...readdirSync(fragments).map((file) => readFileSync(new URL(file, fragments), 'utf8')),
    ];
    const refs = texts.flatMap((text) => [...text.matchAll(/\{ref:([^}]*)\}/g)].map((match) => match[1]));
    expect(refs.length).toBeGreaterThan(10);
    for (const id of refs) expect(Object.keys(SECTION_NUMBERS), id).toContain(id);
    // No hand-written number of the one-page site is left (the paper's §3.5 is the paper's).
    for (const text of texts) expect(text).not.toMatch(/§(?:[1-9]|1[0-2])(?!\.\d|\d)|\b[Ss]ection \d+\b|第 ?\d+ ?节/);
  });

  it('maps every question and claim of the Q&A to a section, the three mistakes first', () => {
    expect(QA_MAP.slice(0, 3).map((line) => line.section)).toEqual(['question', 'question', 'question']);
    for (const { text, section } of QA_MAP) {
      expect(Object.keys(SECTION_NUMBERS)).toContain(section);
      for (const table of [en, zh]) expect(typeof table[text], text).toBe('string');
    }
  });

  it("gives each section the knobs its plots' modules and its reads follow", () => {
    const derived = sectionKnobs();
    for (const section of PAGE_SECTIONS) expect([...section.knobs], section.id).toEqual(derived[section.id]);
    // A plot's knobs are its section's.
    expect(PAGE_SECTIONS.find((section) => section.id === 'compare').knobs).toContain('versus');
    expect(PAGE_SECTIONS.find((section) => section.id === 'rope-relative').knobs).toContain('ropeDim');
    expect(PAGE_SECTIONS.find((section) => section.id === 'heatmap').knobs).not.toContain('ropeDim');
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

  it('has a line saying what to notice, in English and Chinese, for every plot a chapter shows', () => {
    const shown = PAGE_SECTIONS.flatMap((section) => section.plots.map((plot) => plot.name));
    expect(shown.length).toBe(PLOTS.length);
    for (const name of shown) {
      const { notice } = PLOTS.find((plot) => plot.name === name);
      expect(notice).toBe(`${name}.notice`);
      for (const [language, table] of [
        ['en', en],
        ['zh', zh],
      ]) {
        expect(typeof table[notice], `${language} ${notice}`).toBe('string');
        expect(table[notice].trim().length, `${language} ${notice}`).toBeGreaterThan(10);
      }
    }
  });

  it("has a fragment file for each hand-written section and no other (but the start page's notation)", () => {
    const files = readdirSync(new URL('../../../web/fragments/', import.meta.url))
      .filter((file) => file !== 'notation.html')
      .sort();
    const fragments = PAGE_SECTIONS.filter((section) => section.markup === 'fragment').map(({ id }) => `${id}.html`);
    expect(files).toEqual(fragments.sort());
  });
});
