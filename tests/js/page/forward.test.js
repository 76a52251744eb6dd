// Links of the one-page explainer reach the start page and go on to the
// chapter that holds what they name (web/page/forward.js, its table generated
// into web/page/site-map.js); links of the site carry the query (site-links.js).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documents } from '../../../web/build/generate-lists.mjs';
import { CHAPTERS } from '../../../web/model/registry.js';
import { forwardTarget } from '../../../web/page/forward.js';
import { siteTarget, withLanguage } from '../../../web/page/site-links.js';

describe('forwarding an old link of index.html', () => {
  it('sends an anchor to the chapter that holds it, with the query and the fragment', () => {
    expect(forwardTarget('', '#h-rope-lab')).toBe('./rope.html#h-rope-lab');
    expect(forwardTarget('', '#precision')).toBe('./implementations.html#precision');
    expect(forwardTarget('?ropePreset=llama3&lang=zh', '#h-rope-lab')).toBe(
      './rope.html?ropePreset=llama3&lang=zh#h-rope-lab',
    );
    expect(forwardTarget('?dModel=64', '#h-heatmap')).toBe('./sinusoidal.html?dModel=64#h-heatmap');
    expect(forwardTarget('', '#presets')).toBe('./implementations.html#presets');
    expect(forwardTarget('', '#rope-config')).toBe('./rope.html#rope-config');
  });

  it('sends state parameters without an anchor to the chapter that uses most of them', () => {
    expect(forwardTarget('?dModel=64&p=3', '')).toBe('./sinusoidal.html?dModel=64&p=3');
    expect(forwardTarget('?compare=tensor2tensor', '')).toBe('./implementations.html?compare=tensor2tensor');
    expect(forwardTarget('?dModel=64&compare=tensor2tensor', '')).toBe(
      './implementations.html?dModel=64&compare=tensor2tensor',
    );
    expect(forwardTarget('?ropePreset=llama3&lang=zh', '')).toBe('./rope.html?ropePreset=llama3&lang=zh');
    expect(forwardTarget('?context=1024&p=5', '')).toBe('./rope.html?context=1024&p=5');
  });

  it('stays for the start page itself: no query, only ?lang=, an id it has, an id no chapter has', () => {
    expect(forwardTarget('', '')).toBeNull();
    expect(forwardTarget('?lang=zh', '')).toBeNull();
    expect(forwardTarget('', '#content', (id) => id === 'content')).toBeNull();
    expect(forwardTarget('', '#no-such-id')).toBeNull();
  });
});

describe('links of the site', () => {
  it('are the links to its documents, with or without a query and a fragment', () => {
    expect(siteTarget('./rope.html#h-rope-lab')).toEqual({ file: 'rope.html', hash: '#h-rope-lab' });
    expect(siteTarget('implementations.html?lang=zh#h-check')).toEqual({
      file: 'implementations.html',
      hash: '#h-check',
    });
    expect(siteTarget('./index.html')).toEqual({ file: 'index.html', hash: '' });
    expect(siteTarget('#h-heatmap')).toBeNull();
    expect(siteTarget('embed.html?plot=heatmap')).toBeNull();
    expect(siteTarget('https://example.org/rope.html')).toBeNull();
  });

  it('take the language into the query, replacing any', () => {
    expect(withLanguage('', 'zh')).toBe('?lang=zh');
    expect(withLanguage('?dModel=64', 'en')).toBe('?dModel=64&lang=en');
    expect(withLanguage('?lang=zh&p=3', 'en')).toBe('?p=3&lang=en');
  });
});

describe('every id of the one-page index.html', () => {
  // Each document's ids as generated (the build adds none that a link names).
  const texts = documents();
  const idsOf = (file) => new Set([...texts[file].matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
  const startIds = idsOf('index.html');
  const oldIds = readFileSync(new URL('../../e2e/fixtures/one-page-ids.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean);

  it('goes to a chapter that has an element of that id, or stays where the start page has it', () => {
    const chapterIds = Object.fromEntries(CHAPTERS.map((chapter) => [chapter.file, idsOf(chapter.file)]));
    expect(oldIds.length).toBeGreaterThan(50);
    for (const id of oldIds) {
      const target = forwardTarget('?p=3&lang=zh', `#${id}`, (here) => startIds.has(here));
      if (startIds.has(id)) {
        expect(target, id).toBeNull();
        continue;
      }
      const match = /^\.\/([\w-]+\.html)\?p=3&lang=zh#(.+)$/.exec(target ?? '');
      expect(match, `${id} -> ${target}`).not.toBeNull();
      expect(chapterIds[match[1]]?.has(id), `${id} -> ${match[1]}`).toBe(true);
    }
  });
});
