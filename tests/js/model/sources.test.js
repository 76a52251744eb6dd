// The sources (web/model/sources.js) against the text that cites them: every
// entry is cited ({cite:<id>}) from the text of its own chapter, in English
// and Chinese, every citation names an entry of the chapter it is read in (its
// link, #source-<id>, lands in that chapter's list), and every link or arXiv
// number the text writes out is in the list, so the list cannot drift.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../../../web/i18n/en.js';
import zh from '../../../web/i18n/zh.js';
import { defaultState } from '../../../web/model/state.js';
import { PAGE_SECTIONS, PLOTS } from '../../../web/model/registry.js';
import { SOURCE_CHAPTERS, SOURCES, sourceNumber, sourcesOf } from '../../../web/model/sources.js';
import { textFacts } from '../../../web/model/text-facts.js';

const WEB = new URL('../../../web/', import.meta.url);
const read = (path) => readFileSync(new URL(path, WEB), 'utf8');

// The sections of each chapter, from the registry.
const CHAPTER_SECTIONS = Object.fromEntries(
  SOURCE_CHAPTERS.map((chapter) => [
    chapter,
    PAGE_SECTIONS.filter((section) => section.chapter === chapter).map((section) => section.id),
  ]),
);

const facts = textFacts(defaultState());
/** The keys of a section's strings: its fragment's attributes, or its uniform heading and text, and its plots'. */
function sectionKeys(section) {
  const keys =
    section.markup === 'fragment'
      ? [...read(`fragments/${section.id}.html`).matchAll(/data-i18n(?:-rich)?="([^"]+)"/g)].map((m) => m[1])
      : [`${section.strings}.title`, `${section.strings}.text`];
  for (const plot of PLOTS.filter((p) => p.section === section.id)) keys.push(plot.title, plot.text);
  return keys;
}
/** The text of a chapter in one language's table: its strings, worded as at the default settings. */
function chapterText(table, chapter) {
  return CHAPTER_SECTIONS[chapter]
    .flatMap((id) => sectionKeys(PAGE_SECTIONS.find((section) => section.id === id)))
    .map((key) => table[key] ?? en[key])
    .map((entry) => (typeof entry === 'function' ? entry(facts) : entry))
    .filter((text) => typeof text === 'string')
    .join('\n');
}
const citedIn = (text) => [...text.matchAll(/\{cite:([\w.-]+)\}/g)].map((m) => m[1]);

describe('sources', () => {
  it('are frozen entries with an id, a chapter of the list, an https link, authors, a year and a title', () => {
    expect(Object.isFrozen(SOURCES)).toBe(true);
    for (const source of SOURCES) {
      expect(Object.isFrozen(source)).toBe(true);
      expect(Object.keys(source).sort()).toEqual(['authors', 'chapter', 'href', 'id', 'title', 'year']);
      expect(source.id).toMatch(/^[\w.-]+$/);
      expect(SOURCE_CHAPTERS).toContain(source.chapter);
      expect(new URL(source.href).protocol).toBe('https:');
      expect(source.authors.length).toBeGreaterThan(0);
      expect(source.title.length).toBeGreaterThan(0);
      if (source.year !== null) expect(source.year).toBeGreaterThanOrEqual(2017);
    }
    expect(new Set(SOURCES.map((s) => s.id)).size).toBe(SOURCES.length);
  });

  it('each chapter lists a work once, and lists its sources together', () => {
    for (const chapter of SOURCE_CHAPTERS) {
      const hrefs = sourcesOf(chapter).map((s) => s.href);
      expect(new Set(hrefs).size).toBe(hrefs.length);
    }
    const order = SOURCES.map((s) => SOURCE_CHAPTERS.indexOf(s.chapter));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('number as their place in their chapter’s list, from 1', () => {
    expect(sourceNumber('vaswani2017')).toBe(1);
    expect(sourceNumber('vaswani2017-implementations')).toBe(1);
    expect(sourceNumber('roformer')).toBe(1);
    expect(sourceNumber('men2024')).toBe(2);
    expect(sourceNumber('no-such-source')).toBeUndefined();
  });

  it('the chapter table covers every section of the page once', () => {
    const listed = Object.values(CHAPTER_SECTIONS).flat();
    expect(listed.sort()).toEqual(PAGE_SECTIONS.map((s) => s.id).sort());
  });

  for (const [language, table] of [
    ['en', en],
    ['zh', zh],
  ])
    describe(`in ${language}`, () => {
      for (const chapter of SOURCE_CHAPTERS)
        it(`every source of ${chapter} is cited in its text, and its text cites only its sources`, () => {
          const cited = new Set(citedIn(chapterText(table, chapter)));
          const own = sourcesOf(chapter).map((s) => s.id);
          expect(own.filter((id) => !cited.has(id))).toEqual([]);
          expect([...cited].filter((id) => !own.includes(id))).toEqual([]);
        });
    });

  it('every link and arXiv number in the strings and the fragments is a source', () => {
    const files = [
      ...readdirSync(new URL('i18n/', WEB)).map((name) => `i18n/${name}`),
      ...readdirSync(new URL('fragments/', WEB)).map((name) => `fragments/${name}`),
    ];
    const hrefs = new Set(SOURCES.map((s) => s.href));
    const arxiv = new Set(SOURCES.map((s) => /arxiv\.org\/abs\/(\d{4}\.\d{4,5})$/.exec(s.href)?.[1]).filter(Boolean));
    const strays = [];
    for (const file of files) {
      const text = read(file);
      for (const [url] of text.matchAll(/https?:\/\/[^\s"'`<>)]+/g))
        if (!hrefs.has(url)) strays.push(`${file}: ${url}`);
      for (const [, id] of text.matchAll(/arXiv:? ?(\d{4}\.\d{4,5})/gi))
        if (!arxiv.has(id)) strays.push(`${file}: arXiv ${id}`);
    }
    expect(strays).toEqual([]);
  });

  it('every GitHub issue or pull request the precision chapter names is a source', () => {
    for (const table of [en, zh]) {
      const text = table['precision.text'];
      const numbers = [...text.matchAll(/#(\d+)\{cite:([\w.-]+)\}/g)];
      expect(numbers.length).toBe([...text.matchAll(/#\d+/g)].length);
      for (const [, number, id] of numbers)
        expect(SOURCES.find((s) => s.id === id).href).toMatch(new RegExp(`/(issues|pull)/${number}$`));
    }
  });
});
