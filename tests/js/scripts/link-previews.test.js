// web/scripts/link-previews.mjs: POSENC_SITE_URL, the folder the absolute
// preview URLs are resolved against, checked before any work; the tags it
// writes into each document, once however often it runs (the images it takes:
// tests/e2e/link-preview.test.mjs).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentPreview, embedPreview, PREVIEW_TITLES, siteBase } from '../../../web/scripts/link-previews.mjs';

describe('link-previews: siteBase(POSENC_SITE_URL)', () => {
  it('is null when unset or empty (relative URLs)', () => {
    expect(siteBase(undefined)).toBe(null);
    expect(siteBase('')).toBe(null);
  });

  it('keeps the last path segment with or without a trailing slash', () => {
    for (const value of ['https://example.org/posenc', 'https://example.org/posenc/']) {
      const base = siteBase(value);
      expect(new URL('og/page.png', base).href).toBe('https://example.org/posenc/og/page.png');
      expect(new URL('./', base).href).toBe('https://example.org/posenc/');
    }
    expect(new URL('embed.html', siteBase('http://localhost:8080')).href).toBe('http://localhost:8080/embed.html');
  });

  it('refuses javascript:, data:, other schemes, relative URLs and queries at once, naming POSENC_SITE_URL', () => {
    for (const value of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/',
      'ftp://example.org/',
      'example.org/posenc',
      '/posenc/',
      'https://example.org/posenc/?a=1',
      'https://example.org/posenc/#top',
    ])
      expect(() => siteBase(value), value).toThrow(/^link-previews: POSENC_SITE_URL must/);
    expect(() => siteBase('javascript:alert(1)')).toThrow(TypeError);
  });
});

// The preview tags (each present exactly once) of an HTML document.
const KEYS = ['description', 'og:title', 'og:description', 'og:image', 'og:image:alt', 'twitter:image', 'og:url'];
function tagsOf(html) {
  const found = { title: [...html.matchAll(/<title\b[^>]*>([^<]*)<\/title>/g)].map((m) => m[1]) };
  for (const key of KEYS)
    found[key] = [...html.matchAll(new RegExp(`<meta\\s+(?:name|property)="${key}"\\s+content="([^"]*)"`, 'g'))].map(
      (m) => m[1],
    );
  return found;
}

describe('link-previews: the tags of embed-<plot>.html and of the documents', () => {
  const embed = readFileSync(new URL('../../../web/embed.html', import.meta.url), 'utf8');
  const base = siteBase('https://example.org/posenc');

  it('embed-<plot>.html: its plot by default, its title, description and image, relative without a base', () => {
    const html = embedPreview(embed, 'offset-dots', null);
    const tags = tagsOf(html);
    expect(html).toContain('<html lang="en" data-plot="offset-dots">');
    expect(tags.title).toEqual(['posenc: Dot products depend only on the offset']);
    expect(tags['og:title']).toEqual(tags.title);
    expect(tags.description).toHaveLength(1);
    expect(tags.description[0].startsWith('Dot products depend only on the offset: an interactive plot')).toBe(true);
    expect(tags['og:description']).toEqual(tags.description);
    expect(tags['og:image']).toEqual(['og/offset-dots.png']);
    expect(tags['twitter:image']).toEqual(['og/offset-dots.png']);
    expect(tags['og:url']).toEqual([]);
    // A RoPE plot says what it is about, without its section's number.
    expect(tagsOf(embedPreview(embed, 'rope-scaling', null)).description[0]).toContain('(RoPE)');
    expect(tagsOf(embedPreview(embed, 'rope-scaling', null)).title[0]).not.toMatch(/\d\./);
    // A plot of chapter 4 says it is about timesteps and patches, not the paper's token positions.
    const grid = tagsOf(embedPreview(embed, 'relative-table', null));
    expect(grid.title).toEqual(['posenc: Relative tables and streaming chunks']);
    expect(grid.description[0]).toContain('diffusion timesteps, image patches and relative positions');
  });

  it('with POSENC_SITE_URL: absolute image and og:url; a second run, with or without it before, repeats no tag', () => {
    const once = embedPreview(embed, 'offset-dots', base);
    expect(tagsOf(once)['og:image']).toEqual(['https://example.org/posenc/og/offset-dots.png']);
    expect(tagsOf(once)['og:url']).toEqual(['https://example.org/posenc/embed-offset-dots.html']);
    expect(embedPreview(once, 'offset-dots', base)).toBe(once);
    expect(embedPreview(embedPreview(embed, 'offset-dots', null), 'offset-dots', base)).toBe(once);
    for (const [key, values] of Object.entries(tagsOf(embedPreview(once, 'offset-dots', base))))
      expect(values, key).toHaveLength(1);
  });

  it("each document: the default view's image and its own title as the image's text; og:url of the start page is the folder", () => {
    expect(Object.keys(PREVIEW_TITLES)).toEqual(expect.arrayContaining(['index.html', 'embed.html', 'rope.html']));
    const html = '<html lang="en"><head><title>t</title></head><body></body></html>';
    const relative = documentPreview(html, 'rope.html', PREVIEW_TITLES['rope.html'], null);
    expect(tagsOf(relative)['og:image']).toEqual(['og/page.png']);
    expect(tagsOf(relative)['og:image:alt']).toEqual([PREVIEW_TITLES['rope.html']]);
    expect(tagsOf(relative)['og:url']).toEqual([]);
    const start = documentPreview(relative, 'index.html', PREVIEW_TITLES['index.html'], base);
    expect(tagsOf(start)['og:url']).toEqual(['https://example.org/posenc/']);
    expect(tagsOf(start)['og:image']).toEqual(['https://example.org/posenc/og/page.png']);
    expect(documentPreview(start, 'index.html', PREVIEW_TITLES['index.html'], base)).toBe(start);
  });
});
